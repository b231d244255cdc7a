/** Calls and failed calls per channel × hour (the admin's failure rates). */
export const CHANNEL_OUTCOMES = 'channel_outcomes';
/** Calls and failed calls per user × model × hour (a user's own failure rates). */
export const MODEL_OUTCOMES = 'model_outcomes';

export type ChannelOutcomesDocument = {
  readonly _id: string;
  channel_id: number;
  /** Unix seconds, truncated to the hour. */
  created_at: number;
  calls: number;
  failed: number;
};

export type ModelOutcomesDocument = {
  readonly _id: string;
  user_id: number;
  model_name: string;
  /** Unix seconds, truncated to the hour. */
  created_at: number;
  calls: number;
  failed: number;
};
