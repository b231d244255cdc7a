import { TOKEN_NAME_MAX_LENGTH } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';
import type { TokenSettings } from './token.events';
import { assertBudget } from '../billing/billing.decider';

/** The fields as the API receives them (model_limits a comma list, allow_ips one per line). */
export interface TokenInput {
  readonly name: string;
  readonly expiredTime: number;
  readonly remainQuota: number;
  readonly unlimitedQuota: boolean;
  readonly modelLimitsEnabled: boolean;
  readonly modelLimits: string;
  readonly allowIps: string;
  readonly group: string;
  readonly rateLimits: { readonly rpm: number; readonly tpm: number; readonly concurrency: number };
  /** 0 = no budget (then `period` must be ''). */
  readonly periodQuota?: number;
  /** '' | 'day' | 'week' | 'month'. */
  readonly period?: string;
  /** false = never answer with a fallback model; absent = may. */
  readonly modelFallback?: boolean;
}

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 0;

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && (p === '0' || !p.startsWith('0')))
  );
}

function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let count = groups.length;
  const last = groups[groups.length - 1];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  if (last !== undefined && last.includes('.')) {
    if (!isIpv4(last)) return false;
    groups.pop();
    count += 1;
  }
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? count < 8 : count === 8;
}

/** 4 or 6 for an IP address, 0 otherwise (no node:net here: the domain has no runtime imports). */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (isIpv4(text)) return 4;
  if (text.includes(':') && isIpv6(text)) return 6;
  return 0;
}

/** One IPv4/IPv6 address or CIDR. */
export function isIpOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || !address) return false;
  const family = ipFamily(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Validates and normalises a token form. `now` decides whether the expiry is in the future;
 * `allowedGroups` are the groups the owner may pick (UserUsableGroups plus their own).
 */
export function toTokenSettings(
  input: TokenInput,
  now: Date,
  allowedGroups: readonly string[],
): TokenSettings {
  const name = input.name.trim();
  if (!name) throw new DomainError('token.name_required');
  if ([...name].length > TOKEN_NAME_MAX_LENGTH) throw new DomainError('token.name_too_long');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (
    !Number.isSafeInteger(input.expiredTime) ||
    (input.expiredTime !== -1 && input.expiredTime <= nowSeconds)
  )
    throw new DomainError('token.expiry_invalid');
  if (!input.unlimitedQuota && !isCount(input.remainQuota))
    throw new DomainError('token.quota_invalid');
  const allowIps = input.allowIps
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const badIp = allowIps.find((ip) => !isIpOrCidr(ip));
  if (badIp !== undefined) throw new DomainError('token.ip_invalid', { ip: badIp });
  const modelLimits = [
    ...new Set(
      input.modelLimits
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
  const group = input.group.trim();
  if (group && !allowedGroups.includes(group)) throw new DomainError('token.group_forbidden');
  const { rpm, tpm, concurrency } = input.rateLimits;
  if (![rpm, tpm, concurrency].every(isCount)) throw new DomainError('token.rate_limit_invalid');
  const budget = assertBudget(input.periodQuota ?? 0, input.period ?? '');
  return {
    name,
    expiredTime: input.expiredTime,
    // Unlimited quota ignores remain_quota (kept as sent when valid, else 0).
    remainQuota: isCount(input.remainQuota) ? input.remainQuota : 0,
    unlimitedQuota: input.unlimitedQuota,
    modelLimitsEnabled: input.modelLimitsEnabled,
    modelLimits,
    allowIps,
    group,
    rateLimits: { rpm, tpm, concurrency },
    // Only when set: a token without a budget records what it always did.
    ...(budget.period ? { periodQuota: budget.periodQuota, period: budget.period } : {}),
    ...(input.modelFallback === false ? { modelFallback: false as const } : {}),
  };
}
