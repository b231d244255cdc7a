/** Channel status: 1 enabled, 2 disabled by hand, 3 disabled automatically. */
export const ChannelStatus = {
  Enabled: 1,
  ManuallyDisabled: 2,
  AutoDisabled: 3,
} as const;
export type ChannelStatusValue = (typeof ChannelStatus)[keyof typeof ChannelStatus];
export const CHANNEL_STATUSES: readonly number[] = Object.values(ChannelStatus);

/** Parsed form of a channel's `other_info` JSON text. */
export interface ChannelOtherInfo {
  /** Why the channel was disabled automatically (status 3). */
  status_reason?: string;
  /** Unix seconds of the last status change. */
  status_time?: number;
}

/**
 * The last failure a channel had: a relayed call that failed on it, or a failed test. Answers carry
 * all four (zero values when none); older read models lack them.
 */
export interface ChannelLastFailureDto {
  /** Unix seconds; 0 = none recorded. */
  last_failure_time?: number;
  /** The upstream's message, the channel's key masked ('' when none). */
  last_failure_reason?: string;
  /** The upstream's HTTP status (0 for a network failure or a timeout). */
  last_failure_status?: number;
  /** The last test failed: the response time then says so, not a time. */
  test_failed?: boolean;
}

/**
 * A channel as GET /api/channel/ (list, search, one) returns it. `key` is always '' in answers:
 * the key is write-only (an update without a key keeps the stored one).
 * JSON-valued fields travel as JSON text, as one-api and new-api send them.
 */
export interface ChannelDto extends ChannelLastFailureDto {
  id: number;
  type: number;
  /** Always '' in answers. */
  key: string;
  name: string;
  status: ChannelStatusValue;
  openai_organization: string | null;
  test_model: string | null;
  max_input_tokens: number;
  /** '' = the type's default base URL (channel-types). No trailing slash. */
  base_url: string;
  /** Type-specific: Azure api version, Spark version, Cloudflare account id, Vertex region JSON… */
  other: string;
  /** JSON object text (requested model → upstream model), or ''. */
  model_mapping: string;
  /** JSON object text (upstream status code → reported status code), or ''. */
  status_code_mapping: string;
  /** Comma-separated model names. */
  models: string;
  /** Comma-separated group names. */
  group: string;
  /** 1 = may be disabled automatically on provider errors; 0 = never. */
  auto_ban: number;
  priority: number;
  weight: number;
  tag: string | null;
  /** JSON object text of extra per-channel settings (e.g. {"force_format": true}), or ''. */
  setting: string;
  /**
   * JSON object text whose top-level members replace the same members of every request body sent
   * upstream (after conversion to the channel's protocol), or ''. `model` and `stream` refused.
   */
  param_override: string;
  /** JSON text of ChannelOtherInfo. */
  other_info: string;
  /** Milliseconds of the last test; 0 = never tested. */
  response_time: number;
  /** Unix seconds. */
  created_time: number;
  test_time: number;
  /** Provider balance in the provider's currency unit (USD for OpenAI-style providers). */
  balance: number;
  balance_updated_time: number;
  /** Quota consumed through this channel. */
  used_quota: number;
  /** new-api's extra request headers (JSON text); Tollgate sends none: always null. */
  header_override: string | null;
  /** new-api's free-text note on the channel; always null here. */
  remark: string | null;
  /** new-api's multi-key state: a Tollgate channel holds one key (more keys make more channels). */
  channel_info: ChannelInfoDto;
  /** new-api's JSON text of settings nobody searches (e.g. its Azure responses version); ''. */
  settings: string;
}

/** new-api's `channel_info` of a single-key channel. */
export interface ChannelInfoDto {
  is_multi_key: boolean;
  multi_key_size: number;
  multi_key_status_list: Record<string, number> | null;
  multi_key_polling_index: number;
  multi_key_mode: string;
}

/** The new-api fields a Tollgate channel answers with their zero values (no data behind them). */
export const SINGLE_KEY_CHANNEL_FIELDS: Readonly<
  Pick<ChannelDto, 'header_override' | 'remark' | 'channel_info' | 'settings'>
> = {
  header_override: null,
  remark: null,
  channel_info: {
    is_multi_key: false,
    multi_key_size: 0,
    multi_key_status_list: null,
    multi_key_polling_index: 0,
    multi_key_mode: '',
  },
  settings: '',
};

/**
 * POST /api/channel/ body: the channel fields; `key` may hold several keys, one per line, which
 * creates one channel per key (except JSON-keyed types). new-api's `{mode, channel}` wrapper is
 * accepted too (mode 'single' never splits).
 */
export interface CreateChannelRequest {
  type: number;
  name: string;
  key: string;
  models: string;
  group?: string;
  base_url?: string;
  other?: string;
  openai_organization?: string | null;
  test_model?: string | null;
  max_input_tokens?: number;
  model_mapping?: string;
  status_code_mapping?: string;
  auto_ban?: number;
  priority?: number | null;
  weight?: number | null;
  tag?: string | null;
  setting?: string;
  param_override?: string | null;
  status?: number;
}

/**
 * PUT /api/channel/ body: `id` plus the fields to change (a full update sends them all; a partial
 * one only `status`, `priority` or `weight`). An empty or missing `key` keeps the stored key.
 */
export type UpdateChannelRequest = { id: number } & Partial<CreateChannelRequest>;

/** GET /api/channel/test/:id?model= answer (top level, not in data). */
export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** A failed test: the upstream's HTTP status (0 for a network failure or a timeout). */
  status_code?: number;
  /** Seconds the test request took. */
  time: number;
}

/** GET /api/channel/update_balance/:id/ answer (top level, not in data). */
export interface ChannelBalanceResult {
  success: boolean;
  message: string;
  balance: number;
}

/** POST /api/channel/fetch_models body (the add form, before the channel exists). */
export interface FetchModelsRequest {
  type: number;
  key: string;
  base_url?: string;
}

/** POST /api/channel/batch body. */
export interface ChannelIdsRequest {
  ids: number[];
}

/** GET /api/channel/models rows: every model the server knows, OpenAI model-object style. */
export interface KnownModelDto {
  id: string;
  object: 'model';
  owned_by: string;
}

/** POST /api/channel/copy/:id answer data. */
export interface CopyChannelResultDto {
  id: number;
}

/** Parses other_info text leniently (bad JSON reads as empty). */
export function parseChannelOtherInfo(text: string | null | undefined): ChannelOtherInfo {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const record = parsed as Record<string, unknown>;
    const info: ChannelOtherInfo = {};
    if (typeof record.status_reason === 'string') info.status_reason = record.status_reason;
    if (typeof record.status_time === 'number') info.status_time = record.status_time;
    return info;
  } catch {
    return {};
  }
}

/** Response-time colour band: 0 untested, ≤1 s green, ≤3 s lime, ≤5 s yellow, else red. */
export type ResponseTimeBand = 'untested' | 'green' | 'lime' | 'yellow' | 'red';
export function responseTimeBand(ms: number): ResponseTimeBand {
  if (ms <= 0) return 'untested';
  if (ms <= 1000) return 'green';
  if (ms <= 3000) return 'lime';
  if (ms <= 5000) return 'yellow';
  return 'red';
}
