/**
 * One hourly row of GET /api/data/self and /api/data/ (new-api's quota_data): a user's (or, for the
 * admin's unfiltered view, everyone's) usage of one model in one hour.
 */
export interface QuotaDataRowDto {
  /** Absent in the admin's unfiltered view (summed over every user). */
  user_id?: number;
  username?: string;
  model_name: string;
  /** Unix seconds, truncated to the hour. */
  created_at: number;
  token_used: number;
  count: number;
  /** Quota units. */
  quota: number;
}

/**
 * One row of the dashboard's failure rates: GET /api/data/failures (admin, per channel) and
 * GET /api/data/self/failures (the caller's own calls, per model), over the same range as the rows.
 * `failed` / `calls` is the rate; `calls` counts answered and failed calls alike.
 */
export interface FailureRateDto {
  /** The channel (admin view) or the model (own view) the row counts. */
  key: string;
  /** The channel's id in the admin view (0 in the own view). */
  channel_id: number;
  calls: number;
  failed: number;
}
