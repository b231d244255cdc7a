import {
  DEFAULT_TOKEN_QUOTA,
  MAX_TOKEN_BATCH,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_NEVER_EXPIRES,
  type BudgetPeriodName,
  type CreateTokenRequest,
  type TokenDto,
} from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';
import { formatDateTime, parseDateTime } from '@/utils/date-time';

/** The drawer's fields as typed; numbers stay `number | string` the way Mantine's inputs give them. */
export interface TokenFormValues {
  name: string;
  /** Local `YYYY-MM-DD HH:mm:ss`; '' = never expires (-1 on the wire). */
  expiry: string;
  remainQuota: number | string;
  unlimited: boolean;
  count: number | string;
  allowIps: string;
  modelLimitsEnabled: boolean;
  modelLimits: string[];
  /** Off: the token's clients never get a fallback model (docs/relay.md "Model fallbacks"). */
  modelFallback: boolean;
  group: string;
  rpm: number | string;
  tpm: number | string;
  concurrency: number | string;
  /** The periodic budget (docs/budgets.md): '' = none. */
  period: BudgetPeriodName;
  /** Quota units per period, typed like the remaining quota. */
  periodQuota: number | string;
}

export const BUDGET_PERIOD_OPTIONS = ['', 'day', 'week', 'month'] as const;

/** Expiry shortcuts: never, one hour, one day, one month (30 days). */
export const EXPIRY_SHORTCUTS = [
  { key: 'never', seconds: null },
  { key: 'oneHour', seconds: 3600 },
  { key: 'oneDay', seconds: 86_400 },
  { key: 'oneMonth', seconds: 30 * 86_400 },
] as const;

/** Quota presets, in dollars. */
export const QUOTA_PRESETS_USD = [1, 10, 50, 100, 500, 1000] as const;
/** Batch count presets (one create makes at most MAX_TOKEN_BATCH). */
export const COUNT_PRESETS = [10, 20, 30, 100] as const;

export function emptyTokenForm(): TokenFormValues {
  return {
    name: '',
    expiry: '',
    remainQuota: DEFAULT_TOKEN_QUOTA,
    unlimited: false,
    count: 1,
    allowIps: '',
    modelLimitsEnabled: false,
    modelLimits: [],
    modelFallback: true,
    group: '',
    rpm: 0,
    tpm: 0,
    concurrency: 0,
    period: '',
    periodQuota: 0,
  };
}

export function tokenToForm(token: TokenDto): TokenFormValues {
  return {
    name: token.name,
    expiry: token.expired_time === TOKEN_NEVER_EXPIRES ? '' : formatDateTime(token.expired_time),
    remainQuota: token.remain_quota,
    unlimited: token.unlimited_quota,
    count: 1,
    allowIps: token.allow_ips,
    modelLimitsEnabled: token.model_limits_enabled,
    modelLimits: token.model_limits ? token.model_limits.split(',').filter(Boolean) : [],
    modelFallback: token.model_fallback ?? true,
    group: token.group,
    rpm: token.rate_limit_rpm,
    tpm: token.rate_limit_tpm,
    concurrency: token.rate_limit_concurrency,
    period: token.period ?? '',
    periodQuota: token.period_quota ?? 0,
  };
}

type Result =
  | { ok: true; request: CreateTokenRequest }
  | { ok: false; error: ParseKeys; field: keyof TokenFormValues };

const isWholeNumber = (value: number | string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(number) && number >= min && number <= max;
};

/**
 * A budget is a period and a quota of at least 1; no period = no budget (the quota is ignored).
 * The error key when the pair is not one, else null. The token form and the user edit both check it.
 */
export function budgetError(
  period: BudgetPeriodName,
  periodQuota: number | string,
): 'tokens.badPeriodQuota' | null {
  return period && !isWholeNumber(periodQuota, 1) ? 'tokens.badPeriodQuota' : null;
}

/**
 * Checks the form (the server checks again) and builds the request body: a non-empty name of
 * at most TOKEN_NAME_MAX_LENGTH characters, an expiry in the future, whole numbers. `creating`
 * adds `count`.
 */
export function buildTokenRequest(values: TokenFormValues, now: number, creating: boolean): Result {
  const name = values.name.trim();
  if (!name) return { ok: false, error: 'tokens.nameRequired', field: 'name' };
  if ([...name].length > TOKEN_NAME_MAX_LENGTH) {
    return { ok: false, error: 'tokens.nameTooLong', field: 'name' };
  }

  let expiredTime: number = TOKEN_NEVER_EXPIRES;
  if (values.expiry.trim()) {
    const parsed = parseDateTime(values.expiry);
    if (parsed === null) return { ok: false, error: 'tokens.badExpiry', field: 'expiry' };
    if (parsed <= now) return { ok: false, error: 'tokens.expiryInPast', field: 'expiry' };
    expiredTime = parsed;
  }

  // Unlimited quota ignores remain_quota, so a half-typed amount does not block the form.
  if (!values.unlimited && !isWholeNumber(values.remainQuota, 0)) {
    return { ok: false, error: 'tokens.badQuota', field: 'remainQuota' };
  }
  if (creating && !isWholeNumber(values.count, 1, MAX_TOKEN_BATCH)) {
    return { ok: false, error: 'tokens.badCount', field: 'count' };
  }
  for (const field of ['rpm', 'tpm', 'concurrency'] as const) {
    if (!isWholeNumber(values[field], 0)) return { ok: false, error: 'tokens.badRateLimit', field };
  }
  const periodError = budgetError(values.period, values.periodQuota);
  if (periodError) return { ok: false, error: periodError, field: 'periodQuota' };

  const request: CreateTokenRequest = {
    name,
    expired_time: expiredTime,
    // Kept while unlimited (the server ignores it) so switching back restores the amount.
    remain_quota: isWholeNumber(values.remainQuota, 0) ? Number(values.remainQuota) : 0,
    unlimited_quota: values.unlimited,
    model_limits_enabled: values.modelLimitsEnabled,
    model_limits: values.modelLimits.join(','),
    model_fallback: values.modelFallback,
    allow_ips: values.allowIps
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    group: values.group,
    rate_limit_rpm: Number(values.rpm),
    rate_limit_tpm: Number(values.tpm),
    rate_limit_concurrency: Number(values.concurrency),
    period_quota: values.period ? Number(values.periodQuota) : 0,
    period: values.period,
  };
  if (creating) request.count = Number(values.count);
  return { ok: true, request };
}
