/**
 * S6 from the gateway's own record of every receipt: `tollgate_usage_receipt_durable_seconds` in
 * /metrics (each receipt's time from its call's settlement, before the answer's last bytes, to the
 * commit on the writer thread), read before and after a load. Tens of thousands of receipts
 * instead of the probe's ~150, and no observer waiting for a crowded core.
 */
const BUCKET = /^tollgate_usage_receipt_durable_seconds_bucket\{le="([^"]+)"\} (\S+)$/;

/** Cumulative counts by upper bound (s), +Inf last. */
export type DurableBuckets = ReadonlyArray<readonly [bound: number, count: number]>;

export async function readDurableBuckets(gatewayUrl: string): Promise<DurableBuckets> {
  const res = await fetch(`${gatewayUrl}/metrics`);
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const buckets: Array<[number, number]> = [];
  for (const line of (await res.text()).split('\n')) {
    const match = BUCKET.exec(line);
    if (match) buckets.push([match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2])]);
  }
  if (buckets.length === 0) throw new Error('/metrics has no receipt durability histogram');
  return buckets.sort((a, b) => a[0] - b[0]);
}

export interface ReceiptDurability {
  readonly receipts: number;
  /** In ms, interpolated inside their bucket as Prometheus's histogram_quantile does. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The bucket the p99 lies in, in ms. */
  readonly p99Bucket: readonly [number, number];
  /** Share of the receipts durable within `withinMs` (exact: a bucket ends there). */
  readonly withinShare: number;
}

/** The receipts counted between two readings. */
export function receiptDurability(
  before: DurableBuckets,
  after: DurableBuckets,
  withinMs: number,
): ReceiptDurability {
  const counts = after.map(([bound, count], i) => [bound, count - (before[i]?.[1] ?? 0)] as const);
  const receipts = counts[counts.length - 1]?.[1] ?? 0;
  const quantile = (q: number): { ms: number; bucket: [number, number] } => {
    const rank = q * receipts;
    let lower = 0;
    let below = 0;
    for (const [bound, count] of counts) {
      if (count >= rank) {
        // Past the last finite bound nothing is known but the bound itself.
        const upper = Number.isFinite(bound) ? bound : lower;
        const share = count > below ? (rank - below) / (count - below) : 1;
        return {
          ms: (lower + (upper - lower) * share) * 1000,
          bucket: [lower * 1000, bound * 1000],
        };
      }
      lower = bound;
      below = count;
    }
    return { ms: NaN, bucket: [NaN, NaN] };
  };
  const within = counts.find(([bound]) => Math.abs(bound * 1000 - withinMs) < 1e-9);
  if (!within) throw new Error(`no bucket ends at ${withinMs} ms`);
  const p99 = quantile(0.99);
  return {
    receipts,
    p50Ms: quantile(0.5).ms,
    p99Ms: p99.ms,
    p99Bucket: p99.bucket,
    withinShare: receipts > 0 ? within[1] / receipts : NaN,
  };
}
