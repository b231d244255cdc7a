import { FIXED_NOW, spec } from '@tollgate/testing';
import { tokenDecider, type TokenCommand } from './token.decider';
import type { TokenEvent, TokenSettings } from './token.events';
import { isIpOrCidr, type TokenInput } from './token.rules';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const sealed = { cipher: 'cipher', hash: 'keyed' };
const input = (over: Partial<TokenInput> = {}): TokenInput => ({
  name: 'main',
  expiredTime: -1,
  remainQuota: 500000,
  unlimitedQuota: false,
  modelLimitsEnabled: false,
  modelLimits: '',
  allowIps: '',
  group: '',
  rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  ...over,
});
const settings = (over: Partial<TokenSettings> = {}): TokenSettings => ({
  name: 'main',
  expiredTime: -1,
  remainQuota: 500000,
  unlimitedQuota: false,
  modelLimitsEnabled: false,
  modelLimits: [],
  allowIps: [],
  group: '',
  rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  ...over,
});
const created = (over: Partial<TokenSettings> = {}): TokenEvent => ({
  type: 'TokenCreated',
  data: {
    tokenId: 5,
    userId: 2,
    sealedKey: sealed,
    keyHash: 'sha',
    createdTime: NOW_S - 100,
    ...settings(over),
  },
});
const status = (
  from: number,
  to: number,
  reason: 'user' | 'expired' | 'exhausted',
): TokenEvent => ({
  type: 'TokenStatusChanged',
  data: { tokenId: 5, userId: 2, from, to, reason },
});
const create = (
  over: Partial<TokenInput> = {},
  groups: string[] = ['default', 'vip'],
): TokenCommand => ({
  type: 'CreateToken',
  tokenId: 5,
  userId: 2,
  sealedKey: sealed,
  keyHash: 'sha',
  input: input(over),
  allowedGroups: groups,
});

describe('tokenDecider', () => {
  describe('CreateToken', () => {
    it('records the token with its sealed key, hash and normalised settings', () => {
      spec(tokenDecider)
        .given([])
        .when(
          create({
            name: '  main ',
            modelLimits: 'gpt-4o, gpt-4o ,o1',
            allowIps: '10.0.0.1\n\n192.168.0.0/16\n::1',
            group: 'vip',
            rateLimits: { rpm: 60, tpm: 1000, concurrency: 2 },
          }),
        )
        .then([
          {
            type: 'TokenCreated',
            data: {
              tokenId: 5,
              userId: 2,
              sealedKey: sealed,
              keyHash: 'sha',
              createdTime: NOW_S,
              ...settings({
                modelLimits: ['gpt-4o', 'o1'],
                allowIps: ['10.0.0.1', '192.168.0.0/16', '::1'],
                group: 'vip',
                rateLimits: { rpm: 60, tpm: 1000, concurrency: 2 },
              }),
            },
          },
        ]);
    });

    it.each<[string, Partial<TokenInput>, string]>([
      ['an empty name', { name: '   ' }, 'token.name_required'],
      ['a name over 30 characters', { name: 'n'.repeat(31) }, 'token.name_too_long'],
      ['an expiry in the past', { expiredTime: NOW_S - 1 }, 'token.expiry_invalid'],
      ['an expiry of now', { expiredTime: NOW_S }, 'token.expiry_invalid'],
      ['an expiry that is not an integer', { expiredTime: 1.5 }, 'token.expiry_invalid'],
      ['a negative quota', { remainQuota: -1 }, 'token.quota_invalid'],
      ['a fractional quota', { remainQuota: 0.5 }, 'token.quota_invalid'],
      ['a bad IP', { allowIps: '10.0.0.1\n300.1.1.1' }, 'token.ip_invalid'],
      ['a bad CIDR', { allowIps: '10.0.0.0/33' }, 'token.ip_invalid'],
      ['a group the user may not use', { group: 'svip' }, 'token.group_forbidden'],
      [
        'a negative rate limit',
        { rateLimits: { rpm: -1, tpm: 0, concurrency: 0 } },
        'token.rate_limit_invalid',
      ],
    ])('rejects %s', (_what, over, code) => {
      spec(tokenDecider).given([]).when(create(over)).thenRejects(code);
    });

    it('accepts a future expiry, and any quota value when unlimited', () => {
      const events = tokenDecider.decide(
        create({ expiredTime: NOW_S + 3600, unlimitedQuota: true, remainQuota: -5 }),
        tokenDecider.initialState,
        { now: FIXED_NOW },
      );
      expect(events[0]!.data).toMatchObject({
        expiredTime: NOW_S + 3600,
        unlimitedQuota: true,
        remainQuota: 0,
      });
    });

    it('refuses a second creation on the same stream', () => {
      spec(tokenDecider).given([created()]).when(create()).thenRejects('token.already_exists');
    });
  });

  describe('UpdateToken', () => {
    const update = (userId: number, over: Partial<TokenInput> = {}): TokenCommand => ({
      type: 'UpdateToken',
      tokenId: 5,
      userId,
      input: input(over),
      allowedGroups: ['default'],
    });

    it('records the full new settings', () => {
      spec(tokenDecider)
        .given([created()])
        .when(update(2, { name: 'renamed', remainQuota: 10 }))
        .then([
          {
            type: 'TokenUpdated',
            data: { tokenId: 5, userId: 2, ...settings({ name: 'renamed', remainQuota: 10 }) },
          },
        ]);
    });

    it('records an opt-out of model fallbacks, and nothing when it is taken back', () => {
      spec(tokenDecider)
        .given([created()])
        .when(update(2, { modelFallback: false }))
        .then([
          {
            type: 'TokenUpdated',
            data: { tokenId: 5, userId: 2, ...settings({ modelFallback: false }) },
          },
        ]);
      spec(tokenDecider)
        .given([created({ modelFallback: false })])
        .when(update(2, { modelFallback: true }))
        .then([{ type: 'TokenUpdated', data: { tokenId: 5, userId: 2, ...settings() } }]);
    });

    it('answers "not found" to another user, for a missing or deleted token', () => {
      spec(tokenDecider).given([created()]).when(update(3)).thenRejects('token.not_found');
      spec(tokenDecider).given([]).when(update(2)).thenRejects('token.not_found');
      spec(tokenDecider)
        .given([
          created(),
          { type: 'TokenDeleted', data: { tokenId: 5, userId: 2, keyHash: 'sha' } },
        ])
        .when(update(2))
        .thenRejects('token.not_found');
    });

    it('validates like creation', () => {
      spec(tokenDecider)
        .given([created()])
        .when(update(2, { name: '' }))
        .thenRejects('token.name_required');
    });
  });

  describe('ChangeTokenStatus', () => {
    const toggle = (status: number, remaining = 100, userId = 2): TokenCommand => ({
      type: 'ChangeTokenStatus',
      tokenId: 5,
      userId,
      status,
      remaining,
    });

    it('disables and re-enables', () => {
      spec(tokenDecider)
        .given([created()])
        .when(toggle(2))
        .then([status(1, 2, 'user')]);
      spec(tokenDecider)
        .given([created(), status(1, 2, 'user')])
        .when(toggle(1))
        .then([status(2, 1, 'user')]);
    });

    it('does nothing when already so', () => {
      spec(tokenDecider).given([created()]).when(toggle(1)).then([]);
    });

    it('asks for a new expiry before enabling an expired token', () => {
      spec(tokenDecider)
        .given([created({ expiredTime: NOW_S - 10 }), status(1, 3, 'expired')])
        .when(toggle(1))
        .thenRejects('token.expired_extend_first');
    });

    it('asks for more quota before enabling an exhausted token', () => {
      spec(tokenDecider)
        .given([created(), status(1, 4, 'exhausted')])
        .when(toggle(1, 0))
        .thenRejects('token.exhausted_add_quota');
      spec(tokenDecider)
        .given([created({ unlimitedQuota: true }), status(1, 4, 'exhausted')])
        .when(toggle(1, 0))
        .then([status(4, 1, 'user')]);
    });

    it('refuses statuses other than 1 and 2, and other users', () => {
      spec(tokenDecider).given([created()]).when(toggle(3)).thenRejects('token.status_invalid');
      spec(tokenDecider)
        .given([created()])
        .when(toggle(2, 100, 9))
        .thenRejects('token.not_found');
    });
  });

  describe('DeleteToken', () => {
    it('records the deletion with the key hash (the directory drops it)', () => {
      spec(tokenDecider)
        .given([created()])
        .when({ type: 'DeleteToken', tokenId: 5, userId: 2 })
        .then([{ type: 'TokenDeleted', data: { tokenId: 5, userId: 2, keyHash: 'sha' } }]);
    });

    it('answers "not found" to another user', () => {
      spec(tokenDecider)
        .given([created()])
        .when({ type: 'DeleteToken', tokenId: 5, userId: 3 })
        .thenRejects('token.not_found');
    });
  });

  describe('MarkTokenExpired / MarkTokenExhausted (system, idempotent)', () => {
    it('records the status once', () => {
      spec(tokenDecider)
        .given([created()])
        .when({ type: 'MarkTokenExpired', tokenId: 5 })
        .then([status(1, 3, 'expired')]);
      spec(tokenDecider)
        .given([created(), status(1, 3, 'expired')])
        .when({ type: 'MarkTokenExpired', tokenId: 5 })
        .then([]);
      spec(tokenDecider)
        .given([created()])
        .when({ type: 'MarkTokenExhausted', tokenId: 5 })
        .then([status(1, 4, 'exhausted')]);
      spec(tokenDecider)
        .given([created(), status(1, 4, 'exhausted')])
        .when({ type: 'MarkTokenExhausted', tokenId: 5 })
        .then([]);
    });

    it('ignores missing tokens and unlimited ones (never exhausted)', () => {
      spec(tokenDecider).given([]).when({ type: 'MarkTokenExpired', tokenId: 5 }).then([]);
      spec(tokenDecider)
        .given([created({ unlimitedQuota: true })])
        .when({ type: 'MarkTokenExhausted', tokenId: 5 })
        .then([]);
    });
  });
});

describe('isIpOrCidr', () => {
  it.each(['1.2.3.4', '10.0.0.0/8', '::1', '2001:db8::/32', '::ffff:1.2.3.4', 'fe80::1'])(
    'accepts %s',
    (ip) => expect(isIpOrCidr(ip)).toBe(true),
  );
  it.each(['1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4/40', 'abc', '1::2::3', '::1/129', ''])(
    'rejects %p',
    (ip) => expect(isIpOrCidr(ip)).toBe(false),
  );
});

describe('tokenDecider: leases on a limited token (scale-out)', () => {
  const lease = (version: number, settled: number): TokenCommand => ({
    type: 'LeaseBalance',
    account: { userId: 0 }, // the decider puts the token's own owner and id
    leaseId: 'L1',
    holder: 'p1',
    minimum: 10,
    want: 1000,
    ttlMs: 60_000,
    view: { settled, seen: {}, atVersion: version },
  });
  const leased = {
    type: 'BalanceLeased',
    data: {
      userId: 2,
      tokenId: 5,
      leaseId: 'L1',
      holder: 'p1',
      amount: 1000,
      expiresAt: FIXED_NOW.getTime() + 60_000,
    },
  } as const;

  it("leases a slice of the token's quota, in the token's own name", () => {
    spec(tokenDecider).given([created()]).when(lease(1, 500_000)).then([leased]);
  });

  it('leases nothing of an unlimited, deleted or unknown token', () => {
    spec(tokenDecider)
      .given([created({ unlimitedQuota: true })])
      .when(lease(1, 500_000))
      .then([]);
    spec(tokenDecider)
      .given([created(), { type: 'TokenDeleted', data: { tokenId: 5, userId: 2, keyHash: 'sha' } }])
      .when(lease(2, 500_000))
      .then([]);
    spec(tokenDecider).given([]).when(lease(0, 500_000)).then([]);
  });

  it('a new cap set by the owner ends the open leases (they were slices of the old one)', () => {
    const updated: TokenEvent = {
      type: 'TokenUpdated',
      data: { tokenId: 5, userId: 2, ...settings({ remainQuota: 1000 }) },
    };
    const state = [created(), leased, updated].reduce(
      tokenDecider.evolve,
      tokenDecider.initialState,
    );
    expect(state.leases).toEqual({});
    expect(state.version).toBe(3);
  });
});
