import type { DecideContext, DomainEvent } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { BudgetPeriod } from './budget-period';

/**
 * Balance leases (scale-out, docs/scale-out.md): several gateway processes spend one user's balance
 * (or one limited token's quota) without talking to each other. A process takes a slice of it as an
 * event on the account's stream — `billing-<userId>`, or `token-<tokenId>` with `tokenId` in the
 * data — appended with the stream's expected revision, so two processes can never lease the same
 * quota; it spends the slice from memory, renews it while busy and returns it when idle. The slices
 * outstanding never exceed what is free; a process that dies holding one loses at most that slice,
 * until any other process records its expiry.
 *
 * The charges themselves are usage receipts on other streams, so the process that decides a lease
 * tells the decider what it has seen of them (`seen`): the settled balance and, per open lease, how
 * much of it the receipts show spent. A lease it has seen nothing of counts whole, so a stale view
 * can only lease less, never more.
 *
 * The same machinery leases a periodic budget (docs/budgets.md): the account is then the budget of
 * the user (on billing-<id>) or of the token (on token-<id>) in one period `window`; its cap is the
 * budget less what the window was charged, its leases count only against leases of the same window
 * and end with it.
 */
/** A budget's period window (ms since the epoch, [start, end)). */
export interface LeaseWindow {
  readonly period: BudgetPeriod;
  readonly start: number;
  readonly end: number;
}

/**
 * Whose quota: a user's balance, or (with `tokenId`) a limited token of that user; with `window`,
 * that user's or token's budget in that period window instead.
 */
export interface LeaseAccount {
  readonly userId: number;
  readonly tokenId?: number;
  readonly window?: LeaseWindow;
}

export interface OpenLease {
  readonly holder: string;
  readonly amount: number;
  /** ms since the epoch; the holder stops spending before this, others may expire it after. */
  readonly expiresAt: number;
  /** A budget lease: the window it belongs to (it never outlives it). */
  readonly window?: LeaseWindow;
}

export type BalanceLeased = DomainEvent<
  'BalanceLeased',
  LeaseAccount & { leaseId: string; holder: string; amount: number; expiresAt: number }
>;
/** The holder extended its lease, and took `added` more quota (0: only the time). */
export type BalanceLeaseRenewed = DomainEvent<
  'BalanceLeaseRenewed',
  LeaseAccount & { leaseId: string; holder: string; added: number; expiresAt: number }
>;
/** The holder gave its lease back; `spent` is what it charged under it (its receipts are durable). */
export type BalanceLeaseReturned = DomainEvent<
  'BalanceLeaseReturned',
  LeaseAccount & { leaseId: string; holder: string; amount: number; spent: number }
>;
/** The holder went silent past the expiry: another process closed the lease for it. */
export type BalanceLeaseExpired = DomainEvent<
  'BalanceLeaseExpired',
  LeaseAccount & { leaseId: string; holder: string; amount: number }
>;

export type LeaseEvent =
  BalanceLeased | BalanceLeaseRenewed | BalanceLeaseReturned | BalanceLeaseExpired;

export const LEASE_EVENT_TYPES: readonly LeaseEvent['type'][] = [
  'BalanceLeased',
  'BalanceLeaseRenewed',
  'BalanceLeaseReturned',
  'BalanceLeaseExpired',
];

/** What the deciding process has seen of the charges (see the module comment). */
export interface LeaseView {
  /** Credits − charges in the receipts it has applied, its own settles included. */
  readonly settled: number;
  /** Per open lease id: the charges under it it has applied. */
  readonly seen: Readonly<Record<string, number>>;
  /** The stream's `version` the view was taken at: another version means the view is stale. */
  readonly atVersion: number;
}

export type LeaseCommand =
  | {
      /** Open a lease, or renew `leaseId` when it is this holder's and still open. */
      readonly type: 'LeaseBalance';
      readonly account: LeaseAccount;
      readonly leaseId: string;
      readonly holder: string;
      /** Less than this free: no lease (nor any top-up of a renewal). */
      readonly minimum: number;
      /** The slice asked for; less is granted when less is free. */
      readonly want: number;
      readonly ttlMs: number;
      readonly view: LeaseView;
    }
  | {
      readonly type: 'ReturnLease';
      readonly account: LeaseAccount;
      readonly leaseId: string;
      readonly holder: string;
      readonly spent: number;
    }
  | {
      readonly type: 'ExpireLease';
      readonly account: LeaseAccount;
      readonly leaseId: string;
      /** How long after its expiry a lease may be closed by another process. */
      readonly graceMs: number;
    };

export interface LeaseState {
  /** Events folded from the stream (any type): a view taken at another version is stale. */
  readonly version?: number;
  readonly leases?: Readonly<Record<string, OpenLease>>;
}

/** Same account on one stream: both balance leases, or budget leases of one window. */
export const sameWindow = (a: LeaseWindow | undefined, b: LeaseWindow | undefined): boolean =>
  a === undefined || b === undefined
    ? a === b
    : a.start === b.start && a.end === b.end && a.period === b.period;

/**
 * Quota the stream's open leases of one account (the balance, or the budget of `window`) may still
 * spend, by the view's account of their charges.
 */
export function leasedUnspent(
  state: LeaseState,
  seen: LeaseView['seen'],
  window?: LeaseWindow,
): number {
  let held = 0;
  for (const [id, lease] of Object.entries(state.leases ?? {}))
    if (sameWindow(lease.window, window)) held += Math.max(0, lease.amount - (seen[id] ?? 0));
  return held;
}

/** The leases left once a budget changed: its budget leases end (the holders lease again). */
export function withoutBudgetLeases(
  leases: LeaseState['leases'],
): Readonly<Record<string, OpenLease>> {
  const kept: Record<string, OpenLease> = {};
  for (const [id, lease] of Object.entries(leases ?? {})) if (!lease.window) kept[id] = lease;
  return kept;
}

const LEASE_TYPES: ReadonlySet<string> = new Set(LEASE_EVENT_TYPES);
const LEASE_COMMANDS: ReadonlySet<string> = new Set(['LeaseBalance', 'ReturnLease', 'ExpireLease']);

export const isLeaseEvent = (event: { readonly type: string }): event is LeaseEvent =>
  LEASE_TYPES.has(event.type);
export const isLeaseCommand = (command: { readonly type: string }): command is LeaseCommand =>
  LEASE_COMMANDS.has(command.type);

/**
 * The evolve of a stream that carries leases (billing-<id>, token-<id>): every event counts in
 * `version` (what a lease view is checked against), lease events move the leases, the others go
 * to the stream's own evolve.
 */
export function evolveWithLeases<S extends LeaseState, E extends DomainEvent>(
  state: S,
  event: E | LeaseEvent,
  evolve: (state: S, event: E) => S,
): S {
  const counted = { ...state, version: (state.version ?? 0) + 1 };
  return isLeaseEvent(event) ? evolveLease(counted, event) : evolve(counted, event);
}

export function evolveLease<S extends LeaseState>(state: S, event: LeaseEvent): S {
  const leases = { ...state.leases };
  switch (event.type) {
    case 'BalanceLeased': {
      const { leaseId, holder, amount, expiresAt, window } = event.data;
      leases[leaseId] = window
        ? { holder, amount, expiresAt, window }
        : { holder, amount, expiresAt };
      break;
    }
    case 'BalanceLeaseRenewed': {
      const lease = leases[event.data.leaseId];
      if (lease)
        leases[event.data.leaseId] = {
          ...lease,
          amount: lease.amount + event.data.added,
          expiresAt: event.data.expiresAt,
        };
      break;
    }
    case 'BalanceLeaseReturned':
    case 'BalanceLeaseExpired':
      delete leases[event.data.leaseId];
      break;
  }
  return { ...state, leases };
}

export function decideLease(
  command: LeaseCommand,
  state: LeaseState,
  { now }: DecideContext,
): LeaseEvent[] {
  const lease = state.leases?.[command.leaseId];
  switch (command.type) {
    case 'LeaseBalance': {
      const { account, leaseId, holder, minimum, want, ttlMs, view } = command;
      if (![minimum, want, ttlMs].every(isQuantity) || ttlMs === 0 || minimum > want)
        throw new DomainError('billing.invalid_amount');
      // Another lease, a credit or a return landed after the view was taken: take it again.
      if (view.atVersion !== (state.version ?? 0)) throw new DomainError('billing.lease_stale');
      // A lease id names one account: a balance lease is not renewed as a budget's, nor the reverse.
      if (lease && !sameWindow(lease.window, account.window)) return [];
      const { window } = account;
      // A budget lease ends with its window: none is taken or renewed once the window is over.
      if (window && now.getTime() >= window.end) return [];
      const free = Math.max(0, view.settled - leasedUnspent(state, view.seen, window));
      const granted = Math.min(want, Math.floor(free));
      const expiresAt = Math.min(now.getTime() + ttlMs, window?.end ?? Infinity);
      if (lease && lease.holder === holder) {
        if (granted < minimum) return [];
        return [
          {
            type: 'BalanceLeaseRenewed',
            data: { ...account, leaseId, holder, added: granted, expiresAt },
          },
        ];
      }
      if (lease || granted < minimum || granted === 0) return [];
      return [
        {
          type: 'BalanceLeased',
          data: { ...account, leaseId, holder, amount: granted, expiresAt },
        },
      ];
    }
    case 'ReturnLease':
      if (!lease || lease.holder !== command.holder) return [];
      return [
        {
          type: 'BalanceLeaseReturned',
          data: {
            ...accountOfLease(command.account, lease),
            leaseId: command.leaseId,
            holder: command.holder,
            amount: lease.amount,
            spent: command.spent,
          },
        },
      ];
    case 'ExpireLease':
      if (!lease || lease.expiresAt + command.graceMs > now.getTime()) return [];
      return [
        {
          type: 'BalanceLeaseExpired',
          data: {
            ...accountOfLease(command.account, lease),
            leaseId: command.leaseId,
            holder: lease.holder,
            amount: lease.amount,
          },
        },
      ];
  }
}

const isQuantity = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** The account a closing event names: the lease's own window, whatever the command said. */
function accountOfLease(account: LeaseAccount, lease: OpenLease): LeaseAccount {
  const { window: _sent, ...owner } = account;
  return lease.window ? { ...owner, window: lease.window } : owner;
}
