/** Hourly usage totals per user × model (the dashboard's `quota_data`, /detail). */
export const QUOTA_DATA = 'quota_data';
/** The same hourly rows summed over every user: model × hour (what the admin's unfiltered view reads). */
export const QUOTA_DATA_TOTAL = 'quota_data_total';
/** Usernames and the DataExportEnabled switch, as the projection has seen them. */
export const QUOTA_DATA_STATE = 'quota_data_state';

export type QuotaDataDocument = {
  readonly _id: string;
  user_id: number;
  username: string;
  model_name: string;
  /** Unix seconds, truncated to the hour. */
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
};

export type QuotaDataTotalDocument = Omit<QuotaDataDocument, 'user_id' | 'username'>;

export type QuotaDataStateDocument = {
  readonly _id: string;
  username?: string;
  enabled?: boolean;
};

/** Id of the switch document in QUOTA_DATA_STATE. */
export const EXPORT_SWITCH = '$export';
