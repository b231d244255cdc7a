import type { LeaseEvent } from '@tollgate/domain';

/** A lease this process holds on one account (at most one per account). */
interface OwnLease {
  readonly leaseId: string;
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
  amount: number;
  expiresAt: number;
  seen: number;
}

/** What the lease keeper needs of a lease this process holds. */
export interface HeldLease {
  readonly kind: 'user' | 'token';
  /** The user, or the token, whose quota is leased. */
  readonly id: number;
  readonly leaseId: string;
  readonly amount: number;
  readonly spent: number;
  readonly expiresAt: number;
  readonly lastUsedAt: number;
  /** Reservations of this process on the account still open: the lease is in use. */
  readonly busy: boolean;
  /** What a reservation may still take from it (amount − spent − open reservations). */
  readonly left: number;
}

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
    readonly kind: 'user' | 'token',
    private readonly holder: string,
    private readonly now: () => number,
  ) {}

  /** The lease this process holds on `id`, unless it lapses within `marginMs`. */
  usable(id: number, marginMs: number): OwnLease | undefined {
    const lease = this.own.get(id);
    return lease && lease.expiresAt - marginMs > this.now() ? lease : undefined;
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

  /** Other processes' leases past `expiresAt + graceMs`: their holders went silent. */
  silent(graceMs: number): { kind: 'user' | 'token'; id: number; leaseId: string }[] {
    const now = this.now();
    const found: { kind: 'user' | 'token'; id: number; leaseId: string }[] = [];
    for (const [id, leases] of this.open)
      for (const [leaseId, lease] of leases)
        if (lease.holder !== this.holder && lease.expiresAt + graceMs <= now)
          found.push({ kind: this.kind, id, leaseId });
    return found;
  }

  /** Per open lease on `id`: the charges this process has seen under it. */
  seen(id: number): Record<string, number> {
    const seen: Record<string, number> = {};
    for (const [leaseId, lease] of this.open.get(id) ?? []) seen[leaseId] = lease.seen;
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
        const { holder, amount, expiresAt } = event.data;
        leases.set(leaseId, { holder, amount, expiresAt, seen: 0 });
        if (mine)
          this.own.set(id, { leaseId, amount, spent: 0, expiresAt, lastUsedAt: this.now() });
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
