import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { BillingEvent, GrantReason } from './billing.events';

export interface BillingState {
  /**
   * Net credits: grants, transfers and admin deltas. NOT the balance: per-request charges live on
   * the usage streams and the balance book subtracts them (balance = quota − charges).
   */
  readonly quota: number;
  readonly affQuota: number;
  readonly affHistoryQuota: number;
  readonly affCount: number;
}

export type BillingCommand =
  | {
      readonly type: 'GrantQuota';
      readonly userId: number;
      readonly amount: number;
      readonly reason: GrantReason;
      readonly reference?: string;
    }
  | {
      readonly type: 'AdjustQuota';
      readonly userId: number;
      /** The new balance. */
      readonly to: number;
      /** The balance now (the balance book's, charges included). */
      readonly current: number;
      /** The balance the admin saw; when given and different from `current`, the edit is refused. */
      readonly expected?: number;
      readonly note: string;
    }
  | {
      readonly type: 'RewardInviter';
      readonly userId: number;
      readonly inviteeId: number;
      readonly amount: number;
    }
  | {
      readonly type: 'TransferAffQuota';
      readonly userId: number;
      readonly amount: number;
      readonly minimum: number;
    };

export const initialBillingState: BillingState = {
  quota: 0,
  affQuota: 0,
  affHistoryQuota: 0,
  affCount: 0,
};

export function evolveBilling(state: BillingState, event: BillingEvent): BillingState {
  switch (event.type) {
    case 'QuotaGranted':
      return { ...state, quota: state.quota + event.data.amount };
    case 'QuotaAdjusted':
      // A delta, not a reset: charges made meanwhile (on usage streams) are never erased.
      return { ...state, quota: state.quota + event.data.delta };
    case 'InviterRewarded':
      return {
        ...state,
        affCount: state.affCount + 1,
        affQuota: state.affQuota + event.data.amount,
        affHistoryQuota: state.affHistoryQuota + event.data.amount,
      };
    case 'AffQuotaTransferred':
      return {
        ...state,
        affQuota: state.affQuota - event.data.amount,
        quota: state.quota + event.data.amount,
      };
  }
}

const isQuantity = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

export const billingDecider: Decider<BillingCommand, BillingState, BillingEvent> = {
  initialState: initialBillingState,
  evolve: evolveBilling,
  snapshotVersion: 1,
  decide(command, state) {
    switch (command.type) {
      case 'GrantQuota': {
        if (!isQuantity(command.amount)) throw new DomainError('billing.invalid_amount');
        if (command.amount === 0) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'QuotaGranted', data }];
      }
      case 'AdjustQuota':
        if (!isQuantity(command.to)) throw new DomainError('billing.invalid_amount');
        if (command.expected !== undefined && command.expected !== command.current)
          throw new DomainError('billing.quota_moved', { current: command.current });
        if (command.to === command.current) return [];
        return [
          {
            type: 'QuotaAdjusted',
            data: {
              userId: command.userId,
              from: command.current,
              to: command.to,
              delta: command.to - command.current,
              note: command.note,
            },
          },
        ];
      case 'RewardInviter':
        if (!isQuantity(command.amount)) throw new DomainError('billing.invalid_amount');
        return [
          {
            type: 'InviterRewarded',
            data: { userId: command.userId, inviteeId: command.inviteeId, amount: command.amount },
          },
        ];
      case 'TransferAffQuota':
        if (!Number.isSafeInteger(command.amount) || command.amount < Math.max(1, command.minimum))
          throw new DomainError('billing.transfer_below_minimum', {
            minimum: Math.max(1, command.minimum),
          });
        if (command.amount > state.affQuota)
          throw new DomainError('billing.aff_quota_insufficient');
        return [
          { type: 'AffQuotaTransferred', data: { userId: command.userId, amount: command.amount } },
        ];
    }
  },
};
