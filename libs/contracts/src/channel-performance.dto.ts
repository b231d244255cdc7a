/**
 * One row of GET /api/channel/performance?window=<minutes> (admin): what a channel did for a model
 * over the window, from the relayed and failed calls. Latencies are the upper bound of the
 * log-scale histogram bucket holding the percentile (buckets grow by 1.5×), null without samples.
 */
export interface ChannelPerformanceDto {
  channel_id: number;
  /** The channel's present name (`#<id>` once deleted). */
  channel_name: string;
  /** The model the clients asked for. */
  model: string;
  /** Attempts on this channel (a failed attempt retried elsewhere counts here). */
  calls: number;
  answered: number;
  failed: number;
  /** failed ÷ calls. */
  error_rate: number;
  /** This channel's answered ÷ every channel's answered for the model in the window. */
  share: number;
  /** Total time of answered non-stream calls. */
  p50_ms: number | null;
  p99_ms: number | null;
  /** Time to the first token of answered stream calls. */
  ttft_p50_ms: number | null;
  ttft_p99_ms: number | null;
}
