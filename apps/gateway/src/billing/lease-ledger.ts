import type { LeaseEvent, LeaseWindow } from '@tollgate/domain';

/** What is leased: a user's balance, a limited token's quota, or the budget of either. */
export type LeaseKind = 'user' | 'token' | 'user-budget' | 'token-budget';

/** A lease this process holds on one account (at most one per account). */
interface OwnLease {
  readonly leaseId: string;
  readonly window?: LeaseWindow;
  amount: number;
  /** Charged under it by this process's settles. */
  spent: number;
  expiresAt: number;
  /** Last reserve against it: an idle lease is given back. */
  lastUsedAt: number;
}

/** An open lease of any process, as the events show it; `seen` = the receipts charged under it. */
interface KnownLease {
  readonly holder: string;
  readonly window?: LeaseWindow;
  amount: number;
  expiresAt: number;
  seen: number;
}

/** What the lease keeper needs of a lease this process holds. */
export interface HeldLease {
  readonly kind: LeaseKind;
  /** A budget lease: its period window. */
  readonly window?: LeaseWindow;
  /** The user, or the token, whose quota is leased. */
  readonly id: number;
  readonly leaseId: string;
  readonly amount: number;
  readonly spent: number;
  readonly expiresAt: number;
  readonly lastUsedAt: number;
  /** Reservations of this process on the account still open: the lease is in use. */
  // (For a budget: the reservations on its user or token.)
  readonly busy: boolean;
  /** What a reservation may still take from it (amount − spent − open reservations). */
  readonly left: number;
}

/**
 * When a lease stops being spendable: `marginMs` before its expiry so that a renewal lands in
 * time, except a budget lease that ends with its window (nothing to renew it into: spent to the end).
 */
export const lapsesAt = (
  lease: { readonly expiresAt: number; readonly window?: LeaseWindow },
  marginMs: number,
): number =>
  lease.window && lease.expiresAt >= lease.window.end
    ? lease.expiresAt
    : lease.expiresAt - marginMs;

/**
 * The leases on one kind of account (users' balances on billing-<id>, limited tokens' quotas on
 * token-<id>), as this process's balance book keeps them: the one it holds per account, and every
 * open lease with the charges seen under it (the view a lease decision is taken with).
 */
export class LeaseLedger {
  private readonly own = new Map<number, OwnLease>();
  private readonly open = new Map<number, Map<string, KnownLease>>();
  /** Per account: lease events applied (a refused lease is worth trying again once this moves). */
  private readonly events = new Map<number, number>();

  constructor(
    readonly kind: LeaseKind,
    private readonly holder: string,
    private readonly now: () => number,
  ) {}

  /** The lease this process holds on `id`, unless it lapses within `marginMs`. */
  usable(id: number, marginMs: number): OwnLease | undefined {
    const lease = this.own.get(id);
    return lease && lapsesAt(lease, marginMs) > this.now() ? lease : undefined;
  }

  /** Marks this process's lease on `id` as used now (by a reservation). */
  touch(id: number): string | undefined {
    const lease = this.own.get(id);
    if (lease) lease.lastUsedAt = this.now();
    return lease?.leaseId;
  }

  held(id: number, reserved: number): HeldLease | undefined {
    const lease = this.own.get(id);
    if (!lease) return undefined;
    const left = lease.amount - lease.spent - reserved;
    return { kind: this.kind, id, ...lease, busy: reserved > 0, left };
  }

  heldIds(): number[] {
    return [...this.own.keys()];
  }

  /**
   * Leases past `expiresAt + graceMs` whose holder no longer keeps them: other processes' (they
   * went silent), and this process's budget leases of a window it has left for a newer one.
   */
  silent(graceMs: number): SilentLease[] {
    const now = this.now();
    const found: SilentLease[] = [];
    for (const [id, leases] of this.open)
      for (const [leaseId, lease] of leases) {
        const kept = lease.holder === this.holder && this.own.get(id)?.leaseId === leaseId;
        if (!kept && lease.expiresAt + graceMs <= now)
          found.push({
            kind: this.kind,
            id,
            leaseId,
            ...(lease.window ? { window: lease.window } : {}),
          });
      }
    return found;
  }

  /** Per open lease on `id` (of `window` for a budget): the charges this process has seen under it. */
  seen(id: number, window?: LeaseWindow): Record<string, number> {
    const seen: Record<string, number> = {};
    for (const [leaseId, lease] of this.open.get(id) ?? [])
      if (lease.window?.start === window?.start) seen[leaseId] = lease.seen;
    return seen;
  }

  eventsApplied(id: number): number {
    return this.events.get(id) ?? 0;
  }

  /** A charge under `leaseId`: counted as seen; this process's own also as spent when `spent`. */
  charge(id: number, leaseId: string, amount: number, spent: boolean): void {
    const known = this.open.get(id)?.get(leaseId);
    if (known) known.seen += amount;
    const own = this.own.get(id);
    if (spent && own?.leaseId === leaseId) own.spent += amount;
  }

  /** Every lease on `id` ends (a token's cap was set again, or the token deleted). */
  drop(id: number): void {
    this.open.delete(id);
    this.own.delete(id);
  }

  apply(id: number, event: LeaseEvent): void {
    const { leaseId } = event.data;
    this.events.set(id, this.eventsApplied(id) + 1);
    const leases = this.open.get(id) ?? new Map<string, KnownLease>();
    this.open.set(id, leases);
    const mine = event.data.holder === this.holder;
    switch (event.type) {
      case 'BalanceLeased': {
        const { holder, amount, expiresAt, window } = event.data;
        const scope = window ? { window } : {};
        leases.set(leaseId, { holder, amount, expiresAt, seen: 0, ...scope });
        if (mine)
          this.own.set(id, {
            leaseId,
            amount,
            spent: 0,
            expiresAt,
            lastUsedAt: this.now(),
            ...scope,
          });
        return;
      }
      case 'BalanceLeaseRenewed': {
        const own = this.own.get(id);
        for (const lease of [leases.get(leaseId), own?.leaseId === leaseId ? own : undefined]) {
          if (!lease) continue;
          lease.amount += event.data.added;
          lease.expiresAt = event.data.expiresAt;
        }
        return;
      }
      case 'BalanceLeaseReturned':
      case 'BalanceLeaseExpired':
        leases.delete(leaseId);
        if (leases.size === 0) this.open.delete(id);
        if (this.own.get(id)?.leaseId === leaseId) this.own.delete(id);
        return;
    }
  }
}

/** A lease to close for a holder that no longer keeps it. */
export interface SilentLease {
  readonly kind: LeaseKind;
  readonly id: number;
  readonly leaseId: string;
  readonly window?: LeaseWindow;
}
