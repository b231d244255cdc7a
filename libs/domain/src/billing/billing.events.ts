import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
import type { BudgetPeriod } from './budget-period';

/** `root_start`: the root account's starting balance on a gateway's first start. */
export type GrantReason = 'new_user' | 'invitee_bonus' | 'redemption' | 'topup' | 'root_start';

/** Quota credited to the balance (all amounts in quota units, 500000 = $1). */
export type QuotaGranted = DomainEvent<
  'QuotaGranted',
  { userId: number; amount: number; reason: GrantReason; reference?: string }
>;
/** An administrator set the balance; the delta is the audit trail, `note` the reason given. */
export type QuotaAdjusted = DomainEvent<
  'QuotaAdjusted',
  { userId: number; from: number; to: number; delta: number; note: string }
>;
/** An invitee registered with this user's aff code: pending invitation earnings grow. */
export type InviterRewarded = DomainEvent<
  'InviterRewarded',
  { userId: number; inviteeId: number; amount: number }
>;
/** Pending invitation earnings moved to the balance (atomic: one event, one stream). */
export type AffQuotaTransferred = DomainEvent<
  'AffQuotaTransferred',
  { userId: number; amount: number }
>;

/** A user's periodic budget (docs/budgets.md): 0 / '' = none. The actor is the administrator. */
export interface BudgetSettings {
  readonly periodQuota: number;
  readonly period: BudgetPeriod | '';
}
export type BudgetSet = DomainEvent<
  'BudgetSet',
  { userId: number; periodQuota: number; period: BudgetPeriod | ''; previous: BudgetSettings }
>;

/**
 * The balances a one-api / new-api user row held when it was imported (the opening of this
 * ledger): `quota` left to spend, `usedQuota` spent in `requestCount` requests before the import,
 * and the invitation figures. Counted as if `quota + usedQuota` had been credited and `usedQuota`
 * charged, so balance = quota and used = usedQuota everywhere (read model, balance book, ledger).
 */
export type BalanceImported = DomainEvent<
  'BalanceImported',
  {
    userId: number;
    quota: number;
    usedQuota: number;
    requestCount: number;
    affCount: number;
    affQuota: number;
    affHistoryQuota: number;
    source: ImportSource;
  }
>;

export type BillingEvent =
  | QuotaGranted
  | QuotaAdjusted
  | InviterRewarded
  | AffQuotaTransferred
  | BudgetSet
  | BalanceImported;

export const BILLING_EVENT_TYPES: readonly BillingEvent['type'][] = [
  'QuotaGranted',
  'QuotaAdjusted',
  'InviterRewarded',
  'AffQuotaTransferred',
  'BudgetSet',
  'BalanceImported',
];
