/**
 * Scale-out: the leases this process holds on users' balances and limited tokens' quotas. The
 * balance book then spends a balance or a quota only from this process's lease on it.
 */
import type { LeaseEvent } from '@tollgate/domain';
import type { Reservation } from './balance-terms';
import { LeaseLedger, type LeaseKind } from './lease-ledger';

export type { LeaseKind } from './lease-ledger';
export const LEASE_KINDS: readonly LeaseKind[] = ['user', 'token', 'user-budget', 'token-budget'];

export class BookLeases {
  readonly user: LeaseLedger;
  readonly token: LeaseLedger;
  /** Leases on users' and tokens' periodic budgets, one window at a time (docs/budgets.md). */
  readonly 'user-budget': LeaseLedger;
  readonly 'token-budget': LeaseLedger;

  constructor(
    holder: string,
    /** Before its expiry a lease stops being spent this long, so a renewal lands in time. */
    private readonly marginMs: number,
    now: () => number,
  ) {
    this.user = new LeaseLedger('user', holder, now);
    this.token = new LeaseLedger('token', holder, now);
    this['user-budget'] = new LeaseLedger('user-budget', holder, now);
    this['token-budget'] = new LeaseLedger('token-budget', holder, now);
  }

  apply(lease: LeaseEvent): void {
    const { tokenId, userId, window } = lease.data;
    if (tokenId === undefined) (window ? this['user-budget'] : this.user).apply(userId, lease);
    else (window ? this['token-budget'] : this.token).apply(tokenId, lease);
  }

  /**
   * What is left of this process's lease on `id` beyond `reserved` (none when the lease is about
   * to expire: it must be renewed first).
   */
  spendable(kind: LeaseKind, id: number, reserved: number): number {
    const lease = this[kind].usable(id, this.marginMs);
    return lease ? lease.amount - lease.spent - reserved : 0;
  }

  /** The reservation naming the leases it draws on (and marking them used now). */
  reservation(
    requestId: string,
    userId: number,
    tokenId: number,
    amount: number,
    limited: { token: boolean; userBudget: boolean; tokenBudget: boolean },
  ): Reservation {
    const leaseId = this.user.touch(userId);
    const tokenLeaseId = limited.token ? this.token.touch(tokenId) : undefined;
    const budgetLeaseId = limited.userBudget ? this['user-budget'].touch(userId) : undefined;
    const tokenBudgetLeaseId = limited.tokenBudget
      ? this['token-budget'].touch(tokenId)
      : undefined;
    return {
      requestId,
      userId,
      tokenId,
      amount,
      ...(leaseId ? { leaseId } : {}),
      ...(tokenLeaseId ? { tokenLeaseId } : {}),
      ...(budgetLeaseId ? { budgetLeaseId } : {}),
      ...(tokenBudgetLeaseId ? { tokenBudgetLeaseId } : {}),
    };
  }

  /** A charge under the reservation's leases (spent: by this process's own settle). */
  charge(
    of: Pick<
      Reservation,
      'userId' | 'tokenId' | 'leaseId' | 'tokenLeaseId' | 'budgetLeaseId' | 'tokenBudgetLeaseId'
    >,
    amount: number,
    spent: boolean,
  ): void {
    if (of.leaseId) this.user.charge(of.userId, of.leaseId, amount, spent);
    if (of.tokenLeaseId) this.token.charge(of.tokenId, of.tokenLeaseId, amount, spent);
    if (of.budgetLeaseId) this['user-budget'].charge(of.userId, of.budgetLeaseId, amount, spent);
    if (of.tokenBudgetLeaseId)
      this['token-budget'].charge(of.tokenId, of.tokenBudgetLeaseId, amount, spent);
  }
}
