/**
 * Tokens (relay keys) on the wire. The key travels WITHOUT the `sk-` prefix (as one-api and new-api
 * do); the console shows and copies it as `sk-<key>`.
 */
export const TokenStatus = {
  Enabled: 1,
  Disabled: 2,
  Expired: 3,
  Exhausted: 4,
} as const;
export type TokenStatus = (typeof TokenStatus)[keyof typeof TokenStatus];
export const TOKEN_STATUSES: readonly number[] = Object.values(TokenStatus);

/** `expired_time` value meaning "never expires". */
export const TOKEN_NEVER_EXPIRES = -1;
/** Default quota of a new token (500000 = $1). */
export const DEFAULT_TOKEN_QUOTA = 500000;
/** Largest `size` of GET /api/token/. */
export const MAX_TOKEN_PAGE_SIZE = 100;
/** Largest `count` of POST /api/token/ (batch). */
export const MAX_TOKEN_BATCH = 100;
export const TOKEN_NAME_MAX_LENGTH = 30;
/** Length of the random key (without `sk-`). */
export const TOKEN_KEY_LENGTH = 48;
export const TOKEN_KEY_PREFIX = 'sk-';

/** One token as GET /api/token/, /api/token/search and /api/token/{id} return it (owner only). */
export interface TokenDto {
  id: number;
  user_id: number;
  name: string;
  /** 48 characters, without `sk-`. */
  key: string;
  status: TokenStatus;
  created_time: number;
  /** Unix seconds of the last relayed request; 0 = never. */
  accessed_time: number;
  /** Unix seconds; -1 = never. */
  expired_time: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma list of model names. */
  model_limits: string;
  /** One IP or CIDR per line; '' = any. */
  allow_ips: string;
  /** '' = the user's own group. */
  group: string;
  /** Requests per minute; 0 = no limit. */
  rate_limit_rpm: number;
  /** Tokens per minute; 0 = no limit. */
  rate_limit_tpm: number;
  /** Requests in flight at once; 0 = no limit. */
  rate_limit_concurrency: number;
  /** Periodic budget (docs/budgets.md): quota units per `period`; 0 = none. */
  period_quota: number;
  /** '' (none), 'day', 'week' or 'month', in the server's time zone. */
  period: BudgetPeriodName;
  /** Spent in the current period (0 without a budget). */
  period_used: number;
  /** Unix seconds when the current period ends; 0 without a budget. */
  period_reset_at: number;
  /** false = the token's clients never get a fallback model (docs/relay.md "Model fallbacks"). */
  model_fallback: boolean;
}

export type BudgetPeriodName = '' | 'day' | 'week' | 'month';

/** GET /api/token/?p=&size= → data: TokenDto[] (bare array, 0-based p, size ≤ 100). */
export type TokenListDto = TokenDto[];

/** The editable fields, shared by create and full update. */
export interface TokenFields {
  name: string;
  expired_time?: number;
  remain_quota?: number;
  unlimited_quota?: boolean;
  model_limits_enabled?: boolean;
  model_limits?: string;
  allow_ips?: string;
  group?: string;
  rate_limit_rpm?: number;
  rate_limit_tpm?: number;
  rate_limit_concurrency?: number;
  /** Budget per period (0 = none); needs `period`. */
  period_quota?: number;
  period?: BudgetPeriodName;
  /** false = never answer with a fallback model; absent or null = may (the default). */
  model_fallback?: boolean | null;
}

/**
 * POST /api/token/. `count` (1..100, default 1) creates that many; with count > 1 each name gets a
 * six-character random suffix. Answer data: {@link CreateTokensResultDto}.
 */
export interface CreateTokenRequest extends TokenFields {
  count?: number;
}

export interface CreateTokensResultDto {
  /** How many tokens were created. */
  count: number;
  /** Ids of the created tokens (keys: read them from the list). */
  ids: number[];
}

/** PUT /api/token/ (full update) → data: TokenDto. */
export interface UpdateTokenRequest extends TokenFields {
  id: number;
}

/** PUT /api/token/?status_only=true → data: TokenDto (data.status is the new status). */
export interface UpdateTokenStatusRequest {
  id: number;
  /** 1 enable or 2 disable. */
  status: 1 | 2;
}

/** GET /api/token/search?keyword=&token= → data: TokenDto[] (keyword = name, token = key). */
export interface TokenSearchQuery {
  keyword?: string;
  token?: string;
}
