import { DEFAULT_TOKEN_QUOTA } from '@tollgate/contracts';
import { defaultOptionValues, type TokenInput } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { OPTIONS, type OptionDocument } from '../projections/options.projection';
import type { TokenFieldsBody } from './tokens.dto';

/** The form as the decider takes it; missing fields get the spec's defaults. */
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
  };
}

/** Groups a token may name: the admin's UserUsableGroups plus the owner's own group. */
export async function allowedGroups(readStore: ReadStore, ownGroup: string): Promise<string[]> {
  const doc = await readStore.collection<OptionDocument>(OPTIONS).get('UserUsableGroups');
  let usable: string[] = [];
  try {
    const parsed: unknown = JSON.parse(
      doc?.value ?? defaultOptionValues()['UserUsableGroups'] ?? '{}',
    );
    if (parsed && typeof parsed === 'object') usable = Object.keys(parsed);
  } catch {
    usable = []; // an unreadable option allows only the own group
  }
  return ownGroup ? [...new Set([...usable, ownGroup])] : usable;
}
