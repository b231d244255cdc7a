import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { tokenDecider, type TokenStreamEvent } from '../token/token.decider';
import type { TokenSettings } from '../token/token.events';
import { billingDecider, type BillingStreamEvent } from './billing.decider';
import type { LeaseCommand, LeaseView, LeaseWindow } from './balance-lease';

// Budget leases (scale-out): a user's or token's periodic budget leased per period window, with
// the same decider as balances.
const USER = 4;
const TOKEN = 9;
const NOW = FIXED_NOW.getTime();
const TTL = 60_000;
const HOUR = 3_600_000;
/** The day around NOW: it ends in an hour, so a lease is cut at its end. */
const TODAY: LeaseWindow = { period: 'day', start: NOW - 23 * HOUR, end: NOW + HOUR };
const YESTERDAY: LeaseWindow = { period: 'day', start: TODAY.start - 24 * HOUR, end: TODAY.start };
const ENDING: LeaseWindow = { period: 'day', start: NOW - 24 * HOUR + 10_000, end: NOW + 10_000 };

const budgetSet = (periodQuota: number, period: 'day' | 'week' | ''): BillingStreamEvent => ({
  type: 'BudgetSet',
  data: { userId: USER, periodQuota, period, previous: { periodQuota: 0, period: '' } },
});
const leased = (
  leaseId: string,
  holder: string,
  amount: number,
  window: LeaseWindow = TODAY,
  expiresAt = NOW + TTL,
): BillingStreamEvent => ({
  type: 'BalanceLeased',
  data: {
    userId: USER,
    window,
    leaseId,
    holder,
    amount,
    expiresAt,
  },
});
/** A lease on the balance (no window) of the same stream. */
const balanceLeased = (leaseId: string, holder: string, amount: number): BillingStreamEvent => ({
  type: 'BalanceLeased',
  data: { userId: USER, leaseId, holder, amount, expiresAt: NOW + TTL },
});
const view = (
  history: readonly unknown[],
  settled: number,
  seen: Record<string, number> = {},
): LeaseView => ({ settled, seen, atVersion: history.length });
const leaseBudget = (
  history: readonly unknown[],
  fields: Partial<Extract<LeaseCommand, { type: 'LeaseBalance' }>> & { view: LeaseView },
): LeaseCommand => ({
  type: 'LeaseBalance',
  account: { userId: USER, window: TODAY },
  leaseId: 'B-new',
  holder: 'p2',
  minimum: 10,
  want: 100,
  ttlMs: TTL,
  ...fields,
});

describe('budget leases on billing-<id> (a user budget, one window)', () => {
  it('leases from the budget less what the window was charged and its open leases left unspent', () => {
    // Budget 1000 a day; 300 charged today as seen (settled = 700); p1 holds 500 of today and
    // spent 200 of it (within the 300): 300 of it is still out → 400 free.
    const history = [budgetSet(1000, 'day'), leased('B-1', 'p1', 500)];
    spec(billingDecider)
      .given(history)
      .when(leaseBudget(history, { want: 1000, view: view(history, 700, { 'B-1': 200 }) }))
      .then([leased('B-new', 'p2', 400)]);
  });

  it("counts neither the balance's leases nor an earlier window's against today's budget", () => {
    const history = [
      budgetSet(1000, 'day'),
      balanceLeased('L-balance', 'p1', 900),
      leased('B-old', 'p1', 900, YESTERDAY, YESTERDAY.end),
    ];
    spec(billingDecider)
      .given(history)
      .when(leaseBudget(history, { want: 1000, view: view(history, 1000) }))
      .then([leased('B-new', 'p2', 1000)]);
    // And a balance lease does not count today's budget leases either.
    const budgeted = [budgetSet(1000, 'day'), leased('B-1', 'p1', 1000)];
    spec(billingDecider)
      .given(budgeted)
      .when(
        leaseBudget(budgeted, {
          account: { userId: USER },
          want: 500,
          view: view(budgeted, 5000),
        }),
      )
      .then([balanceLeased('B-new', 'p2', 500)]);
  });

  it('never leases past the budget: N holders together hold at most the budget', () => {
    const history = [budgetSet(1000, 'day'), leased('B-1', 'p1', 600), leased('B-2', 'p2', 400)];
    spec(billingDecider)
      .given(history)
      .when(leaseBudget(history, { holder: 'p3', minimum: 1, view: view(history, 1000) }))
      .then([]);
  });

  it('cuts a lease at the end of its window, and takes or renews none once the window is over', () => {
    const history = [budgetSet(1000, 'day')];
    spec(billingDecider)
      .given(history)
      .when(
        leaseBudget(history, {
          account: { userId: USER, window: ENDING },
          view: view(history, 1000),
        }),
      )
      .then([leased('B-new', 'p2', 100, ENDING, ENDING.end)]);
    spec(billingDecider)
      .given(history)
      .when(
        leaseBudget(history, {
          account: { userId: USER, window: YESTERDAY },
          view: view(history, 1000),
        }),
      )
      .then([]);
    const held = [budgetSet(1000, 'day'), leased('B-old', 'p2', 100, YESTERDAY, YESTERDAY.end)];
    spec(billingDecider)
      .given(held)
      .when(
        leaseBudget(held, {
          leaseId: 'B-old',
          account: { userId: USER, window: YESTERDAY },
          minimum: 0,
          want: 0,
          view: view(held, 1000),
        }),
      )
      .then([]);
  });

  it("does not renew a balance lease as a budget's (a lease id names one account)", () => {
    const history = [budgetSet(1000, 'day'), balanceLeased('L-1', 'p2', 100)];
    spec(billingDecider)
      .given(history)
      .when(leaseBudget(history, { leaseId: 'L-1', view: view(history, 1000) }))
      .then([]);
  });

  it('leases nothing without a budget, or for another period than the budget has', () => {
    spec(billingDecider)
      .given([])
      .when(leaseBudget([], { view: view([], 1000) }))
      .then([]);
    const weekly = [budgetSet(1000, 'week')];
    spec(billingDecider)
      .given(weekly)
      .when(leaseBudget(weekly, { view: view(weekly, 1000) }))
      .then([]);
  });

  it('a new budget ends the leases of the old one and keeps the balance leases', () => {
    const history = [
      budgetSet(1000, 'day'),
      leased('B-1', 'p1', 500),
      balanceLeased('L-1', 'p1', 700),
      budgetSet(200, 'day'),
    ];
    expect(Object.keys(fold(billingDecider, history).leases ?? {})).toEqual(['L-1']);
  });

  it("closes a budget lease in its window's name, whatever the command says", () => {
    const history = [budgetSet(1000, 'day'), leased('B-1', 'p1', 500)];
    spec(billingDecider)
      .given(history)
      .when({
        type: 'ReturnLease',
        account: { userId: USER },
        leaseId: 'B-1',
        holder: 'p1',
        spent: 20,
      })
      .then([
        {
          type: 'BalanceLeaseReturned',
          data: {
            userId: USER,
            window: TODAY,
            leaseId: 'B-1',
            holder: 'p1',
            amount: 500,
            spent: 20,
          },
        },
      ]);
    const expired = [budgetSet(1000, 'day'), leased('B-1', 'p1', 500, TODAY, NOW - TTL)];
    spec(billingDecider)
      .given(expired)
      .when({ type: 'ExpireLease', account: { userId: USER }, leaseId: 'B-1', graceMs: TTL / 2 })
      .then([
        {
          type: 'BalanceLeaseExpired',
          data: { userId: USER, window: TODAY, leaseId: 'B-1', holder: 'p1', amount: 500 },
        },
      ]);
  });
});

describe('budget leases on token-<id> (a token budget)', () => {
  const settings = (over: Partial<TokenSettings>): TokenSettings => ({
    name: 'main',
    expiredTime: -1,
    remainQuota: 0,
    unlimitedQuota: true,
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: [],
    group: '',
    rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
    ...over,
  });
  const created = (over: Partial<TokenSettings>): TokenStreamEvent => ({
    type: 'TokenCreated',
    data: {
      tokenId: TOKEN,
      userId: USER,
      sealedKey: { cipher: 'c', hash: 'h' },
      keyHash: 'sha',
      createdTime: 0,
      ...settings(over),
    },
  });
  const command = (version: number, settled: number): LeaseCommand => ({
    type: 'LeaseBalance',
    account: { userId: 0, window: TODAY }, // the decider puts the token's own owner and id
    leaseId: 'T-1',
    holder: 'p1',
    minimum: 10,
    want: 5000,
    ttlMs: TTL,
    view: { settled, seen: {}, atVersion: version },
  });

  it('leases the budget of an unlimited token in its own name, cut to what is free', () => {
    spec(tokenDecider)
      .given([created({ periodQuota: 1000, period: 'day' })])
      .when(command(1, 1000))
      .then([
        {
          type: 'BalanceLeased',
          data: {
            userId: USER,
            tokenId: TOKEN,
            window: TODAY,
            leaseId: 'T-1',
            holder: 'p1',
            amount: 1000,
            expiresAt: NOW + TTL,
          },
        },
      ]);
  });

  it('leases no budget of a token without one', () => {
    spec(tokenDecider)
      .given([created({})])
      .when(command(1, 1000))
      .then([]);
  });
});
