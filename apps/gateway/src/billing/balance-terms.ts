/** What the balance book answers a reservation with. */
import type { BudgetPeriod } from '@tollgate/domain';

export interface Reservation {
  readonly requestId: string;
  readonly userId: number;
  readonly tokenId: number; // 0 = no token (playground)
  readonly amount: number; // quota units reserved
  /** Scale-out: the lease of this process on the user's balance the reservation draws on. */
  readonly leaseId?: string;
  /** Scale-out: the same on a limited token's quota. */
  readonly tokenLeaseId?: string;
  /** Scale-out: the lease on the user's budget in the current period window. */
  readonly budgetLeaseId?: string;
  /** Scale-out: the lease on the token's budget in the current period window. */
  readonly tokenBudgetLeaseId?: string;
}
/** A periodic budget would be passed (docs/budgets.md): its limit and when the period ends. */
export interface BudgetRefusal {
  readonly ok: false;
  readonly reason: 'token_budget' | 'user_budget';
  /** The budget: quota units per period. */
  readonly limit: number;
  readonly period: BudgetPeriod;
  /** When the period ends and the budget is whole again (ms since the epoch). */
  readonly resetAt: number;
}
/** The balance or the token's quota would be passed. */
export interface QuotaRefusal {
  readonly ok: false;
  readonly reason: 'user_quota' | 'token_quota';
}
/** Which limit a reservation ran into. */
export type LimitReason = QuotaRefusal['reason'] | BudgetRefusal['reason'];
/**
 * Reserved (`limitedBy`: the limit that left less than wanted), or refused. `waitable`: the payer
 * is short only because of reservations still open in this process (once they settle the floor
 * may fit): the relay may wait for them (RELAY_RESERVE_WAIT_MS) before refusing.
 */
export type ReserveResult =
  | { readonly ok: true; readonly reservation: Reservation; readonly limitedBy?: LimitReason }
  | ((QuotaRefusal | BudgetRefusal) & { readonly waitable?: true });
