import type { BucketCounts } from './latency-histogram';

/** Attempts, failures and latency histograms per channel × model × 5 minutes. */
export const CHANNEL_PERFORMANCE = 'channel_performance';

/** The rows' time bucket (seconds): fine enough for a 5-minute window, few rows per hour. */
export const PERFORMANCE_BUCKET_SECONDS = 300;

export type ChannelPerformanceDocument = {
  readonly _id: string;
  channel_id: number;
  /** The model the client asked for. */
  model: string;
  /** Unix seconds, truncated to PERFORMANCE_BUCKET_SECONDS. */
  created_at: number;
  /** Attempts on this channel (a failed attempt then a retry elsewhere counts one here). */
  calls: number;
  /** Attempts that failed (the request went on to another channel, or failed). */
  failed: number;
  /** Attempts that answered the client. */
  answered: number;
  /** Total time of answered non-stream calls: counts per latency-histogram bucket index. */
  l?: BucketCounts;
  /** Time to the first token of answered stream calls: counts per bucket index. */
  f?: BucketCounts;
};
