import { spec } from '@tollgate/testing';
import { redemptionDecider, type RedemptionCommand } from './redemption.decider';
import type { RedemptionImported } from './redemption.events';

const facts = (over: Partial<RedemptionImported['data']> = {}): RedemptionImported['data'] => ({
  redemptionId: 4,
  createdBy: 1,
  name: 'gift',
  quota: 500_000,
  status: 1,
  sealedKey: { cipher: 'cipher-k', hash: 'hash-k' },
  keyHash: 'sha-k',
  createdTime: 1_700_000_000,
  redeemedTime: 0,
  usedUserId: 0,
  deleted: false,
  source: {
    project: 'new-api',
    table: 'redemptions',
    rowId: 4,
    importedAt: '2026-01-15T08:00:00Z',
  },
  ...over,
});
const importCode = (over: Partial<RedemptionImported['data']> = {}): RedemptionCommand => ({
  type: 'ImportRedemption',
  redemption: facts(over),
});
const imported = (over: Partial<RedemptionImported['data']> = {}): RedemptionImported => ({
  type: 'RedemptionImported',
  data: facts(over),
});
const redeem: RedemptionCommand = { type: 'RedeemCode', userId: 9 };

describe('redemptionDecider ImportRedemption', () => {
  it('records the code as the source had it, sealed and hashed', () => {
    spec(redemptionDecider).given([]).when(importCode()).then([imported()]);
  });

  it('decides nothing for a code imported already', () => {
    spec(redemptionDecider).given([imported()]).when(importCode()).then([]);
  });

  it('refuses a stream holding another code', () => {
    spec(redemptionDecider)
      .given([imported({ redemptionId: 5 })])
      .when(importCode())
      .thenRejects('redemption.already_exists');
  });

  it.each<[string, Partial<RedemptionImported['data']>, string]>([
    ['status 0', { status: 0 as 1 }, 'redemption.status_invalid'],
    ['a negative quota', { quota: -1 }, 'redemption.quota_invalid'],
    ['no key', { keyHash: '' }, 'redemption.key_required'],
  ])('refuses %s', (_what, over, code) => {
    spec(redemptionDecider).given([]).when(importCode(over)).thenRejects(code);
  });

  it('an unused imported code redeems once', () => {
    spec(redemptionDecider)
      .given([imported()])
      .when(redeem)
      .then([
        {
          type: 'RedemptionRedeemed',
          data: { redemptionId: 4, userId: 9, quota: 500_000, redeemedTime: 1768464000 },
        },
      ]);
  });

  it('a used imported code stays used', () => {
    spec(redemptionDecider)
      .given([imported({ status: 3, redeemedTime: 1_700_000_500, usedUserId: 2 })])
      .when(redeem)
      .thenRejects('redemption.already_used');
  });

  it('a disabled or deleted imported code does not redeem', () => {
    spec(redemptionDecider)
      .given([imported({ status: 2 })])
      .when(redeem)
      .thenRejects('redemption.disabled');
    spec(redemptionDecider)
      .given([imported({ deleted: true })])
      .when(redeem)
      .thenRejects('redemption.invalid_code');
  });
});
