import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { billingDecider, initialBillingState, type BillingCommand } from './billing.decider';
import type { BillingEvent } from './billing.events';

const USER_ID = 9;

const granted = (amount: number): BillingEvent => ({
  type: 'QuotaGranted',
  data: { userId: USER_ID, amount, reason: 'topup' },
});
const rewarded = (inviteeId: number, amount: number): BillingEvent => ({
  type: 'InviterRewarded',
  data: { userId: USER_ID, inviteeId, amount },
});
const transfer = (amount: number, minimum = 500_000): BillingCommand => ({
  type: 'TransferAffQuota',
  userId: USER_ID,
  amount,
  minimum,
});

/** Decide against the folded history, then fold the new events in: the state the next command sees. */
function after(history: BillingEvent[], command: BillingCommand) {
  const state = fold(billingDecider, history);
  const events = billingDecider.decide(command, state, { now: FIXED_NOW });
  return { events, state: fold(billingDecider, [...history, ...events]) };
}

describe('billingDecider', () => {
  it('starts with an empty ledger', () => {
    expect(billingDecider.initialState).toEqual({
      quota: 0,
      affQuota: 0,
      affHistoryQuota: 0,
      affCount: 0,
    });
    expect(initialBillingState).toBe(billingDecider.initialState);
  });

  describe('GrantQuota', () => {
    it('credits the amount with its reason and reference', () => {
      spec(billingDecider)
        .given([])
        .when({
          type: 'GrantQuota',
          userId: USER_ID,
          amount: 500_000,
          reason: 'redemption',
          reference: 'redemption-12',
        })
        .then([
          {
            type: 'QuotaGranted',
            data: {
              userId: USER_ID,
              amount: 500_000,
              reason: 'redemption',
              reference: 'redemption-12',
            },
          },
        ]);
    });

    it('credits without a reference', () => {
      spec(billingDecider)
        .given([granted(10)])
        .when({ type: 'GrantQuota', userId: USER_ID, amount: 100, reason: 'new_user' })
        .then([
          { type: 'QuotaGranted', data: { userId: USER_ID, amount: 100, reason: 'new_user' } },
        ]);
    });

    it('adds up successive grants', () => {
      const { state } = after([granted(100), granted(250)], {
        type: 'GrantQuota',
        userId: USER_ID,
        amount: 50,
        reason: 'invitee_bonus',
      });
      expect(state.quota).toBe(400);
    });

    it('produces no events for a zero grant', () => {
      spec(billingDecider)
        .given([])
        .when({ type: 'GrantQuota', userId: USER_ID, amount: 0, reason: 'new_user' })
        .then([]);
    });

    it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])(
      'rejects the amount %p',
      (amount) => {
        spec(billingDecider)
          .given([])
          .when({ type: 'GrantQuota', userId: USER_ID, amount, reason: 'topup' })
          .thenRejects('billing.invalid_amount');
      },
    );
  });

  describe('AdjustQuota', () => {
    it('moves the balance to the target and records from, to and delta', () => {
      spec(billingDecider)
        .given([granted(1000), granted(500)])
        .when({ type: 'AdjustQuota', userId: USER_ID, to: 1200, current: 1500, note: 'dispute' })
        .then([
          {
            type: 'QuotaAdjusted',
            data: { userId: USER_ID, from: 1500, to: 1200, delta: -300, note: 'dispute' },
          },
        ]);
    });

    it('measures the delta from the live balance (charges on usage streams included)', () => {
      // Credits 1000, the book says 600 are left after charges: the target 900 is +300.
      const { events, state } = after([granted(1000)], {
        type: 'AdjustQuota',
        userId: USER_ID,
        to: 900,
        current: 600,
        note: '',
      });
      expect(events).toEqual([
        {
          type: 'QuotaAdjusted',
          data: { userId: USER_ID, from: 600, to: 900, delta: 300, note: '' },
        },
      ]);
      expect(state.quota).toBe(1300);
    });

    it('accepts the edit when the balance the admin saw is still the balance', () => {
      spec(billingDecider)
        .given([granted(1000)])
        .when({
          type: 'AdjustQuota',
          userId: USER_ID,
          to: 5000,
          current: 1000,
          expected: 1000,
          note: '',
        })
        .then([
          {
            type: 'QuotaAdjusted',
            data: { userId: USER_ID, from: 1000, to: 5000, delta: 4000, note: '' },
          },
        ]);
    });

    it('refuses the edit when the balance moved since the admin saw it', () => {
      spec(billingDecider)
        .given([granted(1000)])
        .when({
          type: 'AdjustQuota',
          userId: USER_ID,
          to: 5000,
          current: 940,
          expected: 1000,
          note: '',
        })
        .thenRejects('billing.quota_moved');
    });

    it('may set the balance to zero', () => {
      const { events, state } = after([granted(700)], {
        type: 'AdjustQuota',
        userId: USER_ID,
        to: 0,
        current: 700,
        note: 'reset',
      });
      expect(events).toEqual([
        {
          type: 'QuotaAdjusted',
          data: { userId: USER_ID, from: 700, to: 0, delta: -700, note: 'reset' },
        },
      ]);
      expect(state.quota).toBe(0);
    });

    it('folds as a delta: later grants add to it', () => {
      const adjusted: BillingEvent = {
        type: 'QuotaAdjusted',
        data: { userId: USER_ID, from: 1000, to: 200, delta: -800, note: '' },
      };
      const { state } = after([granted(1000), adjusted], {
        type: 'GrantQuota',
        userId: USER_ID,
        amount: 50,
        reason: 'topup',
      });
      expect(state.quota).toBe(250);
    });

    it('produces no events when the balance is already the target', () => {
      spec(billingDecider)
        .given([granted(300)])
        .when({ type: 'AdjustQuota', userId: USER_ID, to: 300, current: 300, note: 'noop' })
        .then([]);
      spec(billingDecider)
        .given([])
        .when({ type: 'AdjustQuota', userId: USER_ID, to: 0, current: 0, note: 'noop' })
        .then([]);
    });

    it.each([-1, 0.5, Number.NaN])('rejects the target %p', (to) => {
      spec(billingDecider)
        .given([granted(300)])
        .when({ type: 'AdjustQuota', userId: USER_ID, to, current: 300, note: '' })
        .thenRejects('billing.invalid_amount');
    });
  });

  describe('RewardInviter', () => {
    it('records the invitation earnings', () => {
      spec(billingDecider)
        .given([])
        .when({ type: 'RewardInviter', userId: USER_ID, inviteeId: 21, amount: 300_000 })
        .then([rewarded(21, 300_000)]);
    });

    it('counts the invitation even when the reward is zero', () => {
      const { events, state } = after([], {
        type: 'RewardInviter',
        userId: USER_ID,
        inviteeId: 21,
        amount: 0,
      });
      expect(events).toEqual([rewarded(21, 0)]);
      expect(state).toMatchObject({ quota: 0, affQuota: 0, affHistoryQuota: 0, affCount: 1 });
    });

    it.each([-5, 2.5])('rejects the amount %p', (amount) => {
      spec(billingDecider)
        .given([])
        .when({ type: 'RewardInviter', userId: USER_ID, inviteeId: 21, amount })
        .thenRejects('billing.invalid_amount');
    });

    it('grows the count, the pending and the historical earnings, not the balance', () => {
      const { state } = after([granted(10), rewarded(21, 300_000)], {
        type: 'RewardInviter',
        userId: USER_ID,
        inviteeId: 22,
        amount: 300_000,
      });
      expect(state).toMatchObject({
        quota: 10,
        affQuota: 600_000,
        affHistoryQuota: 600_000,
        affCount: 2,
      });
    });

    it('makes the earnings transferable: two rewards cover a transfer one alone does not', () => {
      spec(billingDecider)
        .given([rewarded(21, 300_000)])
        .when(transfer(500_000))
        .thenRejects('billing.aff_quota_insufficient');
      spec(billingDecider)
        .given([rewarded(21, 300_000), rewarded(22, 300_000)])
        .when(transfer(600_000))
        .then([{ type: 'AffQuotaTransferred', data: { userId: USER_ID, amount: 600_000 } }]);
    });
  });

  describe('TransferAffQuota', () => {
    const earned = [rewarded(21, 400_000), rewarded(22, 400_000), rewarded(23, 400_000)];

    it('moves pending earnings to the balance', () => {
      spec(billingDecider)
        .given(earned)
        .when(transfer(500_000))
        .then([{ type: 'AffQuotaTransferred', data: { userId: USER_ID, amount: 500_000 } }]);
    });

    it('leaves the rest pending and keeps the history', () => {
      const { state } = after([granted(1000), ...earned], transfer(500_000));
      expect(state).toMatchObject({
        quota: 501_000,
        affQuota: 700_000,
        affHistoryQuota: 1_200_000,
        affCount: 3,
      });
    });

    it('may transfer everything pending, then nothing is left', () => {
      const first = after(earned, transfer(1_200_000));
      expect(first.state).toMatchObject({
        quota: 1_200_000,
        affQuota: 0,
        affHistoryQuota: 1_200_000,
        affCount: 3,
      });
      spec(billingDecider)
        .given([...earned, ...first.events])
        .when(transfer(500_000))
        .thenRejects('billing.aff_quota_insufficient');
    });

    it('rejects an amount below the minimum, naming the minimum', () => {
      spec(billingDecider)
        .given(earned)
        .when(transfer(499_999))
        .thenRejects('billing.transfer_below_minimum', { minimum: 500_000 });
      spec(billingDecider)
        .given(earned)
        .when(transfer(0, 1))
        .thenRejects('billing.transfer_below_minimum', { minimum: 1 });
    });

    it('never moves nothing: with a minimum of 0 an empty transfer is still rejected', () => {
      spec(billingDecider)
        .given(earned)
        .when(transfer(0, 0))
        .thenRejects('billing.transfer_below_minimum', { minimum: 1 });
    });

    it('rejects a non-integer amount as below the minimum', () => {
      spec(billingDecider)
        .given(earned)
        .when(transfer(500_000.5))
        .thenRejects('billing.transfer_below_minimum', { minimum: 500_000 });
    });

    it('rejects more than is pending', () => {
      spec(billingDecider)
        .given(earned)
        .when(transfer(1_200_001))
        .thenRejects('billing.aff_quota_insufficient');
      spec(billingDecider)
        .given([granted(10_000_000)])
        .when(transfer(500_000))
        .thenRejects('billing.aff_quota_insufficient');
    });
  });
});
