import type { PageOf } from './envelope';

/** The log: top-ups, consumption, admin, system and error rows (new-api's later numbering). */
export const LogType = {
  Unknown: 0,
  TopUp: 1,
  Consume: 2,
  Manage: 3,
  System: 4,
  /** A relayed call that failed upstream: no charge, `content` is the scrubbed reason. */
  Error: 5,
} as const;
export type LogType = (typeof LogType)[keyof typeof LogType];
export const LOG_TYPES: readonly LogType[] = Object.values(LogType);

/** What `other` holds on a consumption row (the usage receipt's ratios). */
export interface LogOtherDto {
  frt?: number;
  model_ratio?: number;
  model_price?: number;
  completion_ratio?: number;
  group_ratio?: number;
  /** Prompt tokens read from the provider's cache, and their multiplier. */
  cache_tokens?: number;
  cache_ratio?: number;
  /** Prompt tokens written to the provider's cache (Anthropic), and their multiplier. */
  cache_creation_tokens?: number;
  cache_creation_ratio?: number;
  /** Completion tokens spent reasoning (billed as completion). */
  reasoning_tokens?: number;
  /** The output ceiling (tokens) lowered to what `lowered_by` could pay for. */
  lowered_ceiling?: number;
  lowered_by?: 'user_quota' | 'token_quota' | 'token_budget' | 'user_budget';
  /** Quota charged past the reservation: the answer cost more than its ceiling's price (a debt if unpaid). */
  overrun?: number;
  /** The upstream wrote more output than the ceiling it was sent. */
  ceiling_ignored?: boolean;
  /** The stream was cut at its reservation. */
  stream_cut?: boolean;
  /** The members the channel's parameter override set on the upstream body (names only). */
  param_override?: string[];
  /** A fallback model answered (the row's model): the model asked for and why it moved on. */
  requested_model?: string;
  fallback_reason?: 'failed' | 'context_window' | 'content_filter';
  /** An error row (type 5): the HTTP status the client was answered with, and the retries made. */
  status_code?: number;
  retries?: number;
  /** Admins only. */
  admin_info?: { use_channel?: number[]; admin_username?: string };
  [key: string]: unknown;
}

/**
 * One log row, new-api's fields. Users (GET /api/log/self/, /self/search, /token) get no admin
 * details: channel 0, channel_name '', retry '', no admin_info.
 */
export interface LogDto {
  id: number;
  /** Unix seconds. */
  created_at: number;
  type: LogType;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  channel: number;
  /** The channel's name now (read from the channels at query time; admins only, '' otherwise). */
  channel_name: string;
  /** The token the call was made with (0 for rows no token made). */
  token_id: number;
  /** The group the call was billed in ('' for rows of no call). */
  group: string;
  /** The gateway's id of the request ('' for rows of no call). */
  request_id: string;
  /** Comma list of tried channel ids (admins only; '' otherwise). */
  retry: string;
  ip: string;
  content: string;
  /** JSON text of {@link LogOtherDto}; '' when none. */
  other: string;
}

/** GET /api/log/ (admin) query; /api/log/self/ takes the same minus username and channel. */
export interface LogQuery {
  p?: number;
  page_size?: number;
  type?: LogType;
  username?: string;
  token_name?: string;
  model_name?: string;
  /** Unix seconds, inclusive. */
  start_timestamp?: number;
  /** Unix seconds, inclusive. */
  end_timestamp?: number;
  channel?: number;
  /** The group the calls were billed in. */
  group?: string;
}
/** → data: LogPageDto (1-based p). */
export interface LogPageDto extends PageOf<LogDto> {
  /**
   * Tollgate's addition (retention): unix seconds before which the relayed calls' rows were
   * archived with their receipts; absent when nothing was archived.
   */
  retained_from?: number;
}

/**
 * GET /api/log/self/search?keyword= → data: LogDto[] (the user's latest rows whose token or model
 * name holds the keyword, or of that type when it is a type number). GET /api/log/token with a
 * token's key (`?key=sk-…` or Authorization) → data: LogDto[], that token's latest rows, no
 * session needed. Both at most {@link RECENT_LOG_ROWS} rows, as a user sees their own.
 */
export const RECENT_LOG_ROWS = 100;

/** GET /api/log/stat and /api/log/self/stat (same filters as the list) → data. */
export interface LogStatDto {
  /** Sum of quota of consumption rows in the range. */
  quota: number;
  /** Consumption rows in the last 60 s. */
  rpm: number;
  /** Prompt + completion tokens in the last 60 s. */
  tpm: number;
}

/** DELETE /api/log/?target_timestamp=<unix seconds> (root) → data: number of rows cleared. */
