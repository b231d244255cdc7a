import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { BalanceImported, BillingEvent, BudgetSettings, GrantReason } from './billing.events';
import type { TaskRefunded } from '../task/task.events';
import type { RequestRelayed } from '../usage/usage.events';
import { isBudgetPeriod } from './budget-period';
import {
  decideLease,
  evolveWithLeases,
  isLeaseCommand,
  type LeaseCommand,
  type LeaseEvent,
  type LeaseState,
  withoutBudgetLeases,
} from './balance-lease';

export interface BillingState extends LeaseState {
  /**
   * Net credits: grants, transfers and admin deltas. NOT the balance: per-request charges live on
   * the usage streams and the balance book subtracts them (balance = quota − charges).
   */
  readonly quota: number;
  readonly affQuota: number;
  readonly affHistoryQuota: number;
  readonly affCount: number;
  /** The periodic budget; absent (older snapshots too) = none. */
  readonly budget?: BudgetSettings;
  /** The opening balance of an import is recorded (absent: not imported). */
  readonly imported?: boolean;
}

export type BillingCommand =
  | LeaseCommand
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
    }
  | { readonly type: 'ImportBalance'; readonly balance: BalanceImported['data'] }
  | {
      readonly type: 'SetBudget';
      readonly userId: number;
      /** Quota units per period; 0 with period '' removes the budget. */
      readonly periodQuota: number;
      readonly period: string;
    };

export const NO_BUDGET: BudgetSettings = { periodQuota: 0, period: '' };

/**
 * A budget is a positive quota with a period, or none (0 and ''); one without the other is
 * refused with `budget.incomplete`, a bad value with `budget.quota_invalid` / `budget.period_invalid`.
 */
export function assertBudget(periodQuota: number, period: string): BudgetSettings {
  if (!isQuantity(periodQuota)) throw new DomainError('budget.quota_invalid');
  if (period !== '' && !isBudgetPeriod(period)) throw new DomainError('budget.period_invalid');
  if (periodQuota > 0 !== (period !== '')) throw new DomainError('budget.incomplete');
  return periodQuota > 0 && isBudgetPeriod(period) ? { periodQuota, period } : NO_BUDGET;
}

export const initialBillingState: BillingState = {
  quota: 0,
  affQuota: 0,
  affHistoryQuota: 0,
  affCount: 0,
};

/** Every event of a `billing-<id>` stream. */
export type BillingStreamEvent = BillingEvent | LeaseEvent;

export function evolveBilling(state: BillingState, event: BillingStreamEvent): BillingState {
  return evolveWithLeases(state, event, evolveCredit);
}

function evolveCredit(state: BillingState, event: BillingEvent): BillingState {
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
    case 'BudgetSet':
      // A new budget: the leases of the old one end with it (the holders lease from the new one).
      return {
        ...state,
        budget: { periodQuota: event.data.periodQuota, period: event.data.period },
        leases: withoutBudgetLeases(state.leases),
      };
    case 'BalanceImported':
      return {
        ...state,
        imported: true,
        quota: state.quota + event.data.quota + event.data.usedQuota,
        affCount: state.affCount + event.data.affCount,
        affQuota: state.affQuota + event.data.affQuota,
        affHistoryQuota: state.affHistoryQuota + event.data.affHistoryQuota,
      };
  }
}

/** The events that move a user's spendable balance (`quota`), each on `data.userId`. */
export type BalanceEvent = BillingEvent | RequestRelayed | TaskRefunded;

/**
 * The one credit rule: what an event does to its user's spendable balance. Grants, admin deltas and
 * affiliate transfers credit it, a usage receipt charges it, a task refund gives it back; an
 * invitation reward is pending affiliate earnings and a budget no amount (0).
 */
export function balanceDelta(event: BalanceEvent): number {
  switch (event.type) {
    case 'QuotaGranted':
    case 'AffQuotaTransferred':
      return event.data.amount;
    case 'QuotaAdjusted':
      return event.data.delta;
    case 'RequestRelayed':
      return -event.data.quota;
    case 'TaskRefunded':
      return event.data.quota;
    case 'BalanceImported':
      // Net: credited quota + used, charged used (see BalanceImported).
      return event.data.quota;
    case 'InviterRewarded':
    case 'BudgetSet':
      return 0;
  }
}

const isQuantity = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

export const billingDecider: Decider<BillingCommand, BillingState, BillingStreamEvent> = {
  initialState: initialBillingState,
  evolve: evolveBilling,
  // 2: the state counts its events (version) and holds the open leases.
  snapshotVersion: 2,
  decide(command, state, context) {
    if (isLeaseCommand(command)) {
      // A budget lease needs that budget: a window of the user's current period.
      const window = command.account.window;
      const budget = state.budget;
      const unbudgeted = !budget || budget.periodQuota <= 0 || budget.period !== window?.period;
      if (command.type === 'LeaseBalance' && window && unbudgeted) return [];
      return decideLease(command, state, context);
    }
    switch (command.type) {
      case 'ImportBalance': {
        const b = command.balance;
        const counts = [b.quota, b.usedQuota, b.requestCount, b.affCount, b.affQuota];
        if (!counts.every(isQuantity) || !isQuantity(b.affHistoryQuota))
          throw new DomainError('billing.invalid_amount');
        // The opening balance is written once: a repeated import finds it and adds nothing.
        if (state.imported) return [];
        return [{ type: 'BalanceImported', data: b }];
      }
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
      case 'SetBudget': {
        const next = assertBudget(command.periodQuota, command.period);
        const previous = state.budget ?? NO_BUDGET;
        if (next.periodQuota === previous.periodQuota && next.period === previous.period) return [];
        return [
          {
            type: 'BudgetSet',
            data: {
              userId: command.userId,
              periodQuota: next.periodQuota,
              period: next.period,
              previous: { periodQuota: previous.periodQuota, period: previous.period },
            },
          },
        ];
      }
    }
  },
};
