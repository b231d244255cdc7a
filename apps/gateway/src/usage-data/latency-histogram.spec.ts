import {
  LATENCY_BOUNDS_MS,
  LATENCY_BUCKET_COUNT,
  bucketOf,
  mergeCounts,
  percentileMs,
} from './latency-histogram';

describe('latency histogram', () => {
  it('has log-scale bounds from 10 ms to about two minutes', () => {
    expect(LATENCY_BOUNDS_MS).toHaveLength(LATENCY_BUCKET_COUNT);
    expect(LATENCY_BOUNDS_MS[0]).toBe(10);
    expect(LATENCY_BOUNDS_MS[1]).toBe(15);
    for (let i = 1; i < LATENCY_BOUNDS_MS.length; i++)
      expect(LATENCY_BOUNDS_MS[i]! / LATENCY_BOUNDS_MS[i - 1]!).toBeCloseTo(1.5, 1);
    expect(LATENCY_BOUNDS_MS.at(-1)).toBeGreaterThan(100_000);
    expect(LATENCY_BOUNDS_MS.at(-1)).toBeLessThan(130_000);
  });

  it('puts a duration in the first bucket whose upper bound holds it', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(Number.NaN)).toBe(0);
    expect(bucketOf(10)).toBe(0);
    expect(bucketOf(11)).toBe(1);
    expect(bucketOf(LATENCY_BOUNDS_MS[7]!)).toBe(7);
    expect(bucketOf(LATENCY_BOUNDS_MS[7]! + 1)).toBe(8);
    expect(bucketOf(10 * 60_000)).toBe(LATENCY_BUCKET_COUNT - 1);
  });

  it('reports the upper bound of the bucket holding the quantile', () => {
    // 98 fast calls (bucket 2) and 2 slow ones (bucket 12): p50 fast, p99 slow.
    const counts = { '2': 98, '12': 2 };
    expect(percentileMs(counts, 0.5)).toBe(LATENCY_BOUNDS_MS[2]);
    expect(percentileMs(counts, 0.98)).toBe(LATENCY_BOUNDS_MS[2]);
    expect(percentileMs(counts, 0.99)).toBe(LATENCY_BOUNDS_MS[12]);
    expect(percentileMs({ '5': 1 }, 0.5)).toBe(LATENCY_BOUNDS_MS[5]);
  });

  it('has no percentile for an empty histogram', () => {
    expect(percentileMs({}, 0.5)).toBeNull();
    expect(percentileMs({ '3': 0 }, 0.99)).toBeNull();
  });

  it('merges the counts of several rows', () => {
    const merged: Record<string, number> = {};
    mergeCounts(merged, { '1': 2, '4': 1 });
    mergeCounts(merged, { '4': 3 });
    mergeCounts(merged, undefined);
    expect(merged).toEqual({ '1': 2, '4': 4 });
    expect(percentileMs(merged, 0.5)).toBe(LATENCY_BOUNDS_MS[4]);
  });
});
