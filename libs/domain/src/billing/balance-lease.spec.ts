import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { billingDecider, type BillingStreamEvent } from './billing.decider';
import { leasedUnspent, type LeaseCommand, type LeaseView } from './balance-lease';

const USER = 4;
const NOW = FIXED_NOW.getTime();
const TTL = 60_000;

const granted = (amount: number): BillingStreamEvent => ({
  type: 'QuotaGranted',
  data: { userId: USER, amount, reason: 'topup' },
});
const leased = (leaseId: string, holder: string, amount: number, expiresAt = NOW + TTL) =>
  ({
    type: 'BalanceLeased',
    data: { userId: USER, leaseId, holder, amount, expiresAt },
  }) as const;
const view = (
  history: readonly BillingStreamEvent[],
  settled: number,
  seen: Record<string, number> = {},
): LeaseView => ({ settled, seen, atVersion: history.length });
const lease = (
  history: readonly BillingStreamEvent[],
  fields: Partial<Extract<LeaseCommand, { type: 'LeaseBalance' }>> & { view: LeaseView },
): LeaseCommand => ({
  type: 'LeaseBalance',
  account: { userId: USER },
  leaseId: 'L-new',
  holder: 'p2',
  minimum: 10,
  want: 100,
  ttlMs: TTL,
  ...fields,
});

describe('balance leases on billing-<id>', () => {
  it('leases the slice asked for when the balance has it free', () => {
    const history = [granted(1000)];
    spec(billingDecider)
      .given(history)
      .when(lease(history, { view: view(history, 1000) }))
      .then([leased('L-new', 'p2', 100)]);
  });

  it('grants less than asked when less is free, nothing below the minimum', () => {
    const history = [granted(1000), leased('L-1', 'p1', 950)];
    // p1 spent 50 of its lease, seen: 1000 − 50 settled, 900 still held by p1 → 50 free.
    spec(billingDecider)
      .given(history)
      .when(lease(history, { view: view(history, 950, { 'L-1': 50 }) }))
      .then([leased('L-new', 'p2', 50)]);
    spec(billingDecider)
      .given(history)
      .when(lease(history, { minimum: 60, view: view(history, 950, { 'L-1': 50 }) }))
      .then([]);
  });

  it('counts a lease the view has seen nothing of as wholly unspent (a stale view leases less)', () => {
    const history = [granted(1000), leased('L-1', 'p1', 600)];
    spec(billingDecider)
      .given(history)
      .when(lease(history, { want: 1000, view: view(history, 1000) }))
      .then([leased('L-new', 'p2', 400)]);
    expect(leasedUnspent(fold(billingDecider, history), {})).toBe(600);
  });

  it('refuses a view taken at another version of the stream', () => {
    const history = [granted(1000)];
    spec(billingDecider)
      .given(history)
      .when(lease(history, { view: { settled: 1000, seen: {}, atVersion: 0 } }))
      .thenRejects('billing.lease_stale');
  });

  it("renews the holder's own lease, topping it up with what is free", () => {
    const history = [granted(1000), leased('L-1', 'p1', 100)];
    spec(billingDecider)
      .given(history)
      .when(
        lease(history, {
          leaseId: 'L-1',
          holder: 'p1',
          minimum: 0,
          want: 200,
          view: view(history, 1000),
        }),
      )
      .then([
        {
          type: 'BalanceLeaseRenewed',
          data: { userId: USER, leaseId: 'L-1', holder: 'p1', added: 200, expiresAt: NOW + TTL },
        },
      ]);
    // Nothing free: a renewal still extends the time (added 0) when the minimum is 0.
    spec(billingDecider)
      .given(history)
      .when(
        lease(history, {
          leaseId: 'L-1',
          holder: 'p1',
          minimum: 0,
          want: 0,
          view: view(history, 100),
        }),
      )
      .then([
        {
          type: 'BalanceLeaseRenewed',
          data: { userId: USER, leaseId: 'L-1', holder: 'p1', added: 0, expiresAt: NOW + TTL },
        },
      ]);
  });

  it("never renews another holder's lease", () => {
    const history = [granted(1000), leased('L-1', 'p1', 100)];
    spec(billingDecider)
      .given(history)
      .when(lease(history, { leaseId: 'L-1', holder: 'p2', view: view(history, 1000) }))
      .then([]);
  });

  it('the sum of open leases never exceeds the balance, whatever the order of the takers', () => {
    let history: BillingStreamEvent[] = [granted(1000)];
    for (const holder of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      const state = fold(billingDecider, history);
      const events = billingDecider.decide(
        lease(history, {
          leaseId: `L-${holder}`,
          holder,
          minimum: 1,
          want: 300,
          view: view(history, 1000),
        }),
        state,
        { now: FIXED_NOW },
      );
      history = [...history, ...events];
    }
    const amounts = Object.values(fold(billingDecider, history).leases ?? {}).map((l) => l.amount);
    expect(amounts).toEqual([300, 300, 300, 100]);
  });

  it('a return closes the lease with what was spent under it; only its holder returns it', () => {
    const history = [granted(1000), leased('L-1', 'p1', 100)];
    const returning = {
      type: 'ReturnLease',
      account: { userId: USER },
      leaseId: 'L-1',
      spent: 40,
    } as const;
    spec(billingDecider)
      .given(history)
      .when({ ...returning, holder: 'p1' })
      .then([
        {
          type: 'BalanceLeaseReturned',
          data: { userId: USER, leaseId: 'L-1', holder: 'p1', amount: 100, spent: 40 },
        },
      ]);
    spec(billingDecider)
      .given(history)
      .when({ ...returning, holder: 'p2' })
      .then([]);
    const closed = [
      ...history,
      ...billingDecider.decide({ ...returning, holder: 'p1' }, fold(billingDecider, history), {
        now: FIXED_NOW,
      }),
    ];
    expect(fold(billingDecider, closed).leases).toEqual({});
  });

  it('a silent holder’s lease expires only after its expiry and the grace', () => {
    const history = [granted(1000), leased('L-1', 'p1', 100, NOW - 5_000)];
    const expire = { type: 'ExpireLease', account: { userId: USER }, leaseId: 'L-1' } as const;
    spec(billingDecider)
      .given(history)
      .when({ ...expire, graceMs: 10_000 })
      .then([]);
    spec(billingDecider)
      .given(history)
      .when({ ...expire, graceMs: 5_000 })
      .then([
        {
          type: 'BalanceLeaseExpired',
          data: { userId: USER, leaseId: 'L-1', holder: 'p1', amount: 100 },
        },
      ]);
    spec(billingDecider)
      .given([granted(1000)])
      .when({ ...expire, graceMs: 0 })
      .then([]);
  });

  it('refuses bad amounts', () => {
    const history = [granted(1000)];
    spec(billingDecider)
      .given(history)
      .when(lease(history, { minimum: 20, want: 10, view: view(history, 1000) }))
      .thenRejects('billing.invalid_amount');
    spec(billingDecider)
      .given(history)
      .when(lease(history, { ttlMs: 0, view: view(history, 1000) }))
      .thenRejects('billing.invalid_amount');
  });

  it('the state counts every event of the stream (the version a view is taken at)', () => {
    const history = [granted(1), leased('L-1', 'p1', 1), granted(2)];
    expect(fold(billingDecider, history).version).toBe(3);
  });
});
