/**
 * Scale-out: the leases this process holds on users' balances and limited tokens' quotas. The
 * balance book then spends a balance or a quota only from this process's lease on it.
 */
import type { LeaseEvent } from '@tollgate/domain';
import type { Reservation } from './balance-terms';
import { LeaseLedger } from './lease-ledger';

export type LeaseKind = 'user' | 'token';

export class BookLeases {
  readonly user: LeaseLedger;
  readonly token: LeaseLedger;

  constructor(
    holder: string,
    /** Before its expiry a lease stops being spent this long, so a renewal lands in time. */
    private readonly marginMs: number,
    now: () => number,
  ) {
    this.user = new LeaseLedger('user', holder, now);
    this.token = new LeaseLedger('token', holder, now);
  }

  apply(lease: LeaseEvent): void {
    if (lease.data.tokenId === undefined) this.user.apply(lease.data.userId, lease);
    else this.token.apply(lease.data.tokenId, lease);
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
    limitedToken: boolean,
  ): Reservation {
    const leaseId = this.user.touch(userId);
    const tokenLeaseId = limitedToken ? this.token.touch(tokenId) : undefined;
    return {
      requestId,
      userId,
      tokenId,
      amount,
      ...(leaseId ? { leaseId } : {}),
      ...(tokenLeaseId ? { tokenLeaseId } : {}),
    };
  }

  /** A charge under the reservation's leases (spent: by this process's own settle). */
  charge(
    of: Pick<Reservation, 'userId' | 'tokenId' | 'leaseId' | 'tokenLeaseId'>,
    amount: number,
    spent: boolean,
  ): void {
    if (of.leaseId) this.user.charge(of.userId, of.leaseId, amount, spent);
    if (of.tokenLeaseId) this.token.charge(of.tokenId, of.tokenLeaseId, amount, spent);
  }
}
