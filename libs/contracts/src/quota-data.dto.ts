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
