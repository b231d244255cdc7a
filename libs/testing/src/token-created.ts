import type { TokenCreated } from '@tollgate/domain';

/**
 * A complete TokenCreated event's data for tests: a limited token (cap `remainQuota`, default
 * 500000) of user 1 with no limits, so a spec names only the fields its assertions depend on.
 */
export function tokenCreated(fields: Partial<TokenCreated['data']> = {}): TokenCreated['data'] {
  return {
    tokenId: 1,
    userId: 1,
    name: 't',
    remainQuota: 500_000,
    unlimitedQuota: false,
    expiredTime: -1,
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: [],
    group: '',
    rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
    keyHash: 'h',
    sealedKey: { cipher: 'c', hash: 'h' },
    createdTime: 0,
    ...fields,
  };
}
