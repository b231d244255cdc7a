import { DEFAULT_TOKEN_QUOTA } from '@tollgate/contracts';
import type { TokenInput } from '@tollgate/domain';
import type { TokenFieldsBody } from './tokens.dto';

/** The form as the decider takes it; missing fields get the form's defaults. */
export function toTokenInput(body: TokenFieldsBody): TokenInput {
  return {
    name: body.name ?? '',
    expiredTime: body.expired_time ?? -1,
    remainQuota: body.remain_quota ?? DEFAULT_TOKEN_QUOTA,
    unlimitedQuota: body.unlimited_quota ?? false,
    modelLimitsEnabled: body.model_limits_enabled ?? false,
    modelLimits: body.model_limits ?? '',
    allowIps: body.allow_ips ?? '',
    group: body.group ?? '',
    rateLimits: {
      rpm: body.rate_limit_rpm ?? 0,
      tpm: body.rate_limit_tpm ?? 0,
      concurrency: body.rate_limit_concurrency ?? 0,
    },
    periodQuota: body.period_quota ?? 0,
    period: body.period ?? '',
    modelFallback: body.model_fallback ?? true,
  };
}
