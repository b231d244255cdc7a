import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { tokenDecider, type TokenCommand } from '../token/token.decider';
import type { TokenEvent } from '../token/token.events';
import type { TokenInput } from '../token/token.rules';
import { billingDecider, type BillingCommand } from './billing.decider';
import type { BillingEvent } from './billing.events';

const USER_ID = 9;
const setBudget = (periodQuota: number, period: string): BillingCommand => ({
  type: 'SetBudget',
  userId: USER_ID,
  periodQuota,
  period,
});
const budgetSet = (
  periodQuota: number,
  period: '' | 'day' | 'week' | 'month',
  previous: { periodQuota: number; period: '' | 'day' | 'week' | 'month' },
): BillingEvent => ({
  type: 'BudgetSet',
  data: { userId: USER_ID, periodQuota, period, previous },
});

describe('user budgets (billing decider: SetBudget → BudgetSet)', () => {
  it('sets a budget, naming the previous one (none)', () => {
    spec(billingDecider)
      .given([])
      .when(setBudget(1000, 'day'))
      .then([budgetSet(1000, 'day', { periodQuota: 0, period: '' })]);
  });

  it('changes and removes it, each time naming what it replaced', () => {
    const first = budgetSet(1000, 'day', { periodQuota: 0, period: '' });
    spec(billingDecider)
      .given([first])
      .when(setBudget(5000, 'month'))
      .then([budgetSet(5000, 'month', { periodQuota: 1000, period: 'day' })]);
    spec(billingDecider)
      .given([first])
      .when(setBudget(0, ''))
      .then([budgetSet(0, '', { periodQuota: 1000, period: 'day' })]);
  });

  it('records nothing when the budget is already so', () => {
    spec(billingDecider)
      .given([budgetSet(1000, 'week', { periodQuota: 0, period: '' })])
      .when(setBudget(1000, 'week'))
      .then([]);
    spec(billingDecider).given([]).when(setBudget(0, '')).then([]);
  });

  it('refuses a quota without a period, a period without a quota, and bad values', () => {
    spec(billingDecider).given([]).when(setBudget(1000, '')).thenRejects('budget.incomplete');
    spec(billingDecider).given([]).when(setBudget(0, 'day')).thenRejects('budget.incomplete');
    spec(billingDecider).given([]).when(setBudget(10, 'year')).thenRejects('budget.period_invalid');
    spec(billingDecider).given([]).when(setBudget(-1, 'day')).thenRejects('budget.quota_invalid');
    spec(billingDecider).given([]).when(setBudget(1.5, 'day')).thenRejects('budget.quota_invalid');
  });

  it('folds into the state without touching the balance (older snapshots without it: none)', () => {
    const state = fold(billingDecider, [
      { type: 'QuotaGranted', data: { userId: USER_ID, amount: 50, reason: 'topup' } },
      budgetSet(1000, 'day', { periodQuota: 0, period: '' }),
    ]);
    expect(state.quota).toBe(50);
    expect(state.budget).toEqual({ periodQuota: 1000, period: 'day' });
    const events = billingDecider.decide(setBudget(1000, 'day'), state, { now: FIXED_NOW });
    expect(events).toEqual([]);
  });
});

describe('token budgets (token decider: periodQuota / period in the settings)', () => {
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
  const base = {
    name: 'main',
    expiredTime: -1,
    remainQuota: 500000,
    unlimitedQuota: false,
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: [],
    group: '',
    rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  };
  const create = (over: Partial<TokenInput> = {}): TokenCommand => ({
    type: 'CreateToken',
    tokenId: 5,
    userId: 2,
    sealedKey: { cipher: 'c', hash: 'h' },
    keyHash: 'sha',
    input: input(over),
    allowedGroups: [],
  });
  const created: TokenEvent = {
    type: 'TokenCreated',
    data: {
      tokenId: 5,
      userId: 2,
      sealedKey: { cipher: 'c', hash: 'h' },
      keyHash: 'sha',
      createdTime: Math.floor(FIXED_NOW.getTime() / 1000),
      ...base,
    },
  };
  const update = (over: Partial<TokenInput>): TokenCommand => ({
    type: 'UpdateToken',
    tokenId: 5,
    userId: 2,
    input: input(over),
    allowedGroups: [],
  });

  it('records the budget with the settings when one is set', () => {
    spec(tokenDecider)
      .given([])
      .when(create({ periodQuota: 2000, period: 'week' }))
      .then([{ ...created, data: { ...created.data, periodQuota: 2000, period: 'week' } }]);
  });

  it('records no budget fields without one (as every event before budgets)', () => {
    spec(tokenDecider)
      .given([])
      .when(create({ periodQuota: 0, period: '' }))
      .then([created]);
    spec(tokenDecider).given([]).when(create()).then([created]);
  });

  it('an update sets or removes it (the settings are replaced whole)', () => {
    spec(tokenDecider)
      .given([created])
      .when(update({ periodQuota: 100, period: 'day' }))
      .then([
        {
          type: 'TokenUpdated',
          data: { tokenId: 5, userId: 2, ...base, periodQuota: 100, period: 'day' },
        },
      ]);
    const withBudget: TokenEvent = {
      ...created,
      data: { ...created.data, periodQuota: 100, period: 'day' },
    };
    spec(tokenDecider)
      .given([withBudget])
      .when(update({}))
      .then([{ type: 'TokenUpdated', data: { tokenId: 5, userId: 2, ...base } }]);
  });

  it('refuses half a budget and bad values', () => {
    spec(tokenDecider)
      .given([])
      .when(create({ periodQuota: 10 }))
      .thenRejects('budget.incomplete');
    spec(tokenDecider)
      .given([])
      .when(create({ period: 'day' }))
      .thenRejects('budget.incomplete');
    spec(tokenDecider)
      .given([])
      .when(create({ periodQuota: 10, period: 'hour' }))
      .thenRejects('budget.period_invalid');
    spec(tokenDecider)
      .given([])
      .when(create({ periodQuota: -5, period: 'day' }))
      .thenRejects('budget.quota_invalid');
  });
});
