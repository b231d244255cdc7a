import { spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
import { balanceDelta, billingDecider } from './billing.decider';
import type { BalanceImported, BillingEvent } from './billing.events';

const source: ImportSource = {
  project: 'new-api',
  table: 'users',
  rowId: 7,
  importedAt: '2026-01-15T08:00:00.000Z',
};
const balance = (over: Partial<BalanceImported['data']> = {}): BalanceImported['data'] => ({
  userId: 7,
  quota: 3_000_000,
  usedQuota: 1234,
  requestCount: 9,
  affCount: 2,
  affQuota: 50,
  affHistoryQuota: 70,
  source,
  ...over,
});
const imported = (over: Partial<BalanceImported['data']> = {}): BillingEvent => ({
  type: 'BalanceImported',
  data: balance(over),
});

describe('billingDecider ImportBalance', () => {
  it('writes the opening balance once', () => {
    spec(billingDecider)
      .given([])
      .when({ type: 'ImportBalance', balance: balance() })
      .then([imported()]);
  });

  it('decides nothing when the balance is already imported (a resumed run)', () => {
    spec(billingDecider)
      .given([imported()])
      .when({ type: 'ImportBalance', balance: balance({ quota: 1 }) })
      .then([]);
  });

  it('credits quota + used quota on the billing stream and counts quota as the balance', () => {
    // Counted as if quota + usedQuota had been credited and usedQuota charged (BalanceImported).
    expect(fold(billingDecider, [imported()])).toMatchObject({
      quota: 3_000_000 + 1234,
      affQuota: 50,
      affHistoryQuota: 70,
      affCount: 2,
    });
    expect(balanceDelta({ type: 'BalanceImported', data: balance() })).toBe(3_000_000);
  });

  it('imports a zero balance (a user who never had quota)', () => {
    spec(billingDecider)
      .given([])
      .when({ type: 'ImportBalance', balance: balance({ quota: 0, usedQuota: 0 }) })
      .then([imported({ quota: 0, usedQuota: 0 })]);
  });

  it.each<[string, Partial<BalanceImported['data']>]>([
    ['a negative quota', { quota: -1 }],
    ['a negative used quota', { usedQuota: -5 }],
    ['a fractional request count', { requestCount: 1.5 }],
    ['a negative aff count', { affCount: -1 }],
    ['a negative aff quota', { affQuota: -1 }],
    ['a negative aff history', { affHistoryQuota: -1 }],
    ['an unsafe integer', { quota: Number.MAX_SAFE_INTEGER + 2 }],
    ['NaN', { quota: Number.NaN }],
  ])('refuses %s', (_name, over) => {
    spec(billingDecider)
      .given([])
      .when({ type: 'ImportBalance', balance: balance(over) })
      .thenRejects('billing.invalid_amount');
  });

  it('refuses invalid amounts even when already imported', () => {
    spec(billingDecider)
      .given([imported()])
      .when({ type: 'ImportBalance', balance: balance({ quota: -1 }) })
      .thenRejects('billing.invalid_amount');
  });
});
