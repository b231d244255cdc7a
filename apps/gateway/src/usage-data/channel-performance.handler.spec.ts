import type { ChannelPerformanceDocument } from './channel-performance.document';
import { performanceRows, summedPerformance } from './channel-performance.handler';
import { LATENCY_BOUNDS_MS } from './latency-histogram';

const doc = (fields: Partial<ChannelPerformanceDocument>): ChannelPerformanceDocument => ({
  _id: 'x',
  channel_id: 1,
  model: 'm',
  created_at: 0,
  calls: 0,
  failed: 0,
  answered: 0,
  ...fields,
});

describe('channel performance rows', () => {
  it('sums the 5-minute rows, merges histograms, and shares each model among its channels', () => {
    const sums = summedPerformance([
      doc({ channel_id: 1, created_at: 0, calls: 4, failed: 1, answered: 3, l: { '2': 3 } }),
      doc({ channel_id: 1, created_at: 300, calls: 2, answered: 2, l: { '9': 2 } }),
      doc({ channel_id: 2, calls: 5, answered: 5, f: { '4': 5 } }),
      doc({ channel_id: 3, model: 'other', calls: 1, failed: 1 }),
    ]);
    const rows = performanceRows(sums, new Map([[1, 'one']]));
    expect(rows.map((r) => [r.channel_name, r.model, r.calls, r.answered, r.failed])).toEqual([
      ['one', 'm', 6, 5, 1],
      ['#2', 'm', 5, 5, 0],
      ['#3', 'other', 1, 0, 1],
    ]);
    const [one, two, three] = rows;
    expect(one!.error_rate).toBeCloseTo(1 / 6);
    expect(one!.share).toBeCloseTo(0.5);
    expect(two!.share).toBeCloseTo(0.5);
    expect(three!.share).toBe(0);
    expect(three!.error_rate).toBe(1);
    expect([one!.p50_ms, one!.p99_ms]).toEqual([LATENCY_BOUNDS_MS[2], LATENCY_BOUNDS_MS[9]]);
    expect([one!.ttft_p50_ms, two!.p50_ms, two!.ttft_p50_ms]).toEqual([
      null,
      null,
      LATENCY_BOUNDS_MS[4],
    ]);
  });
});
