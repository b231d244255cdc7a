/** The first bucket's upper bound: anything at or under 10 ms counts as 10 ms. */
export const LATENCY_BASE_MS = 10;
/** Each bucket's upper bound is this many times the one before (about ±20 % at the bucket's middle). */
export const LATENCY_GROWTH = 1.5;
/** 24 buckets: 10 ms … ~112 s; anything longer falls in the last one. */
export const LATENCY_BUCKET_COUNT = 24;

/** Bucket i holds durations in (bound i-1, bound i] ms; bound i = 10 ms × 1.5^i, rounded. */
export const LATENCY_BOUNDS_MS: readonly number[] = Array.from(
  { length: LATENCY_BUCKET_COUNT },
  (_, i) => Math.round(LATENCY_BASE_MS * LATENCY_GROWTH ** i),
);

/** Bucket counts by index; absent indexes count 0 (stored as `{ "7": 3 }`). */
export type BucketCounts = Readonly<Record<string, number>>;

/** The bucket a duration falls in; negative or non-finite durations count as the first. */
export function bucketOf(ms: number): number {
  if (!(ms > LATENCY_BASE_MS)) return 0;
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BUCKET_COUNT - 1 : i;
}

/** Adds `counts` into `into` (rows of several time buckets merged into one histogram). */
export function mergeCounts(into: Record<string, number>, counts: BucketCounts | undefined): void {
  for (const [i, n] of Object.entries(counts ?? {})) into[i] = (into[i] ?? 0) + n;
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, as the upper bound of the bucket that holds it (so
 * a p50 of 338 means "half the calls took at most ~338 ms"); null when the histogram is empty.
 */
export function percentileMs(counts: BucketCounts, q: number): number | null {
  const dense = LATENCY_BOUNDS_MS.map((_, i) => counts[String(i)] ?? 0);
  const total = dense.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < dense.length; i++) {
    seen += dense[i]!;
    if (seen >= rank) return LATENCY_BOUNDS_MS[i]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BUCKET_COUNT - 1]!;
}
