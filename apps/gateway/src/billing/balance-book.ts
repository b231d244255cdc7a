import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  balanceDelta,
  BILLING_EVENT_TYPES,
  LEASE_EVENT_TYPES,
  periodEndMs,
  periodStartMs,
  TASK_REFUND_EVENT_TYPES,
  TOKEN_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type BillingEvent,
  type BudgetPeriod,
  type LeaseEvent,
  type LeaseView,
  type RequestRelayed,
  type TaskRefunded,
  type TokenEvent,
} from '@tollgate/domain';
import { eventTimeMs } from '@tollgate/event-store';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { LeaseLedger, type HeldLease } from './lease-ledger';
import { defaultTimeZone } from './time-zone';

export type { HeldLease } from './lease-ledger';

export interface Reservation {
  readonly requestId: string;
  readonly userId: number;
  readonly tokenId: number; // 0 = no token (playground)
  readonly amount: number; // quota units reserved
  /** Scale-out: the lease of this process on the user's balance the reservation draws on. */
  readonly leaseId?: string;
  /** Scale-out: the same on a limited token's quota. */
  readonly tokenLeaseId?: string;
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

const PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];
const PERIOD_INDEX: Readonly<Record<BudgetPeriod, number>> = { day: 0, week: 1, month: 2 };

/**
 * What a user or a token was charged in the current day, week and month (index as PERIODS): the
 * sum of a period is valid while its start is the current window's start, else it is 0 (a new
 * period began: reset lazily, no job). Kept for every account so that a budget set mid-period
 * counts what was spent since the period began, as the read side (ledger_usage) does.
 */
interface PeriodSpend {
  readonly starts: number[];
  readonly spent: number[];
}
const newSpend = (): PeriodSpend => ({ starts: [NaN, NaN, NaN], spent: [0, 0, 0] });

interface Budgeted {
  /** Quota units per period; 0 = no budget (the only field the hot path checks). */
  budgetQuota: number;
  budgetPeriod: BudgetPeriod;
  readonly spend: PeriodSpend;
  reserved: number;
}

interface Window {
  start: number;
  end: number;
}

interface Account extends Budgeted {
  /** Net credits from billing-<id> (grants, transfers, admin deltas). */
  credited: number;
  /**
   * Σ quota of the RequestRelayed receipts (and of local settles not yet seen as receipts), less the
   * TaskRefunded refunds.
   */
  charged: number;
  /** Quota held by open reservations. */
  reserved: number;
}

interface TokenAccount extends Budgeted {
  unlimited: boolean;
  /** The remain_quota last set by the owner (create/update). */
  cap: number;
  /** Charged since that cap was set. */
  chargedSinceCap: number;
  /** Σ of all charges (used_quota). */
  used: number;
  reserved: number;
}

/**
 * The in-memory ledger the relay checks on its hot path: per user credits − charges − open
 * reservations, per token its cap − charges − reservations. Fed by the process's cache
 * subscription (billing credits, token caps, usage receipts) and changed synchronously by
 * reserve/settle/release, so two requests of one user in one process can never both reserve the
 * same quota (JavaScript runs one at a time). A settle charges the whole actual cost, even past
 * the reservation: a balance then goes below 0, a debt every further reservation is refused on
 * until a credit covers it (docs/ledger.md "Debts"); nothing is forgiven here. The RequestRelayed
 * receipt of a settled request, arriving later through the subscription, is recognised by its
 * requestId and not counted again. After a restart the receipts are replayed and the balances
 * come out the same; open reservations are lost (under-billing at worst, never an overdraft).
 */
@Injectable()
export class BalanceBook implements HotCache {
  readonly name = 'balance-book';
  readonly eventTypes = [
    'UserRegistered',
    'UserImported',
    ...BILLING_EVENT_TYPES,
    ...TOKEN_EVENT_TYPES,
    ...USAGE_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
    ...LEASE_EVENT_TYPES,
  ];

  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, TokenAccount>();
  private readonly open = new Map<string, Reservation>();
  /** Settled here, receipt not yet seen: requestId → quota charged. */
  private readonly settledLocally = new Map<string, number>();
  /**
   * The current day, week and month (same for every account: one zone), moved forward lazily.
   * They start at the process's present, so the start-up replay drops the charges of earlier
   * periods with one comparison instead of walking the windows through the log's whole history.
   */
  private readonly windows: Window[] = PERIODS.map(() => ({ start: -Infinity, end: -Infinity }));
  /**
   * Scale-out (useLeases): a user's balance and a limited token's quota are then spent only from
   * the lease this process holds on them. Undefined in single-process mode: all of it is here.
   */
  private leases: { readonly user: LeaseLedger; readonly token: LeaseLedger } | undefined;
  /** Before its expiry a lease stops being spent this long, so a renewal lands in time. */
  private leaseMarginMs = 0;
  private now: () => number = Date.now;
  private timeZone = defaultTimeZone();
  /** Told (on a later microtask, the book consistent again) when a user's spendable may have grown. */
  private freedListener: ((userId: number) => void) | undefined;
  private readonly freedUsers = new Set<number>();

  constructor() {
    this.resetWindows();
  }

  /** The clock of reserves and settles and the zone of the periods (tests inject both). */
  useClock(now: () => number, timeZone: string = this.timeZone): void {
    this.now = now;
    this.timeZone = timeZone;
    this.resetWindows();
  }

  /**
   * What a user or token spent in the current `period` and when it ends (the read side's
   * period_used / period_reset_at: the figure the reservations are held against).
   */
  periodUse(
    kind: 'user' | 'token',
    id: number,
    period: BudgetPeriod,
  ): { readonly used: number; readonly resetAt: number } {
    const index = PERIOD_INDEX[period];
    const window = this.current(index, this.now());
    const spend = (kind === 'user' ? this.users : this.tokens).get(id)?.spend;
    const used = spend && spend.starts[index] === window.start ? spend.spent[index]! : 0;
    return { used, resetAt: window.end };
  }

  private resetWindows(): void {
    const at = this.now();
    PERIODS.forEach((period, i) => {
      this.windows[i] = {
        start: periodStartMs(period, at, this.timeZone),
        end: periodEndMs(period, at, this.timeZone),
      };
    });
  }

  /** Scale-out: spend users' quota only from the leases `holder` (this process) takes. */
  useLeases(holder: string, marginMs: number): void {
    const now = () => this.now();
    this.leases = {
      user: new LeaseLedger('user', holder, now),
      token: new LeaseLedger('token', holder, now),
    };
    this.leaseMarginMs = marginMs;
  }

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'UserRegistered':
        case 'UserImported':
          this.account((event.data as { userId: number }).userId);
          break;
        case 'RequestRelayed':
          this.applyReceipt((event as unknown as RequestRelayed).data, eventTimeMs(event));
          break;
        case 'TaskRefunded':
          this.applyRefund((event as unknown as TaskRefunded).data, eventTimeMs(event));
          break;
        case 'BalanceLeased':
        case 'BalanceLeaseRenewed':
        case 'BalanceLeaseReturned':
        case 'BalanceLeaseExpired': {
          const lease = { type: event.type, data: event.data } as LeaseEvent;
          if (lease.data.tokenId === undefined) this.leases?.user.apply(lease.data.userId, lease);
          else this.leases?.token.apply(lease.data.tokenId, lease);
          break;
        }
        default:
          if ((BILLING_EVENT_TYPES as readonly string[]).includes(event.type))
            this.applyBilling({ type: event.type, data: event.data } as BillingEvent);
          else this.applyToken({ type: event.type, data: event.data } as TokenEvent);
      }
    }
  }

  /**
   * Reserves `wanted` quota, or as much of it as the payer can spend when that is at least `floor`
   * (the relay lowers the answer's output ceiling to fit: docs/relay.md). What the payer can spend
   * is the least of the user's balance, a limited token's quota and both periodic budgets, after the
   * reservations already open. A refusal names the first limit below the floor.
   */
  reserve(
    requestId: string,
    userId: number,
    tokenId: number,
    wanted: number,
    floor = wanted,
  ): ReserveResult {
    if (!Number.isFinite(wanted) || wanted < 0) throw new Error(`Bad reservation ${wanted}`);
    if (!Number.isFinite(floor) || floor < 0) throw new Error(`Bad reservation floor ${floor}`);
    if (this.open.has(requestId)) throw new Error(`Request ${requestId} already reserved`);
    const account = this.users.get(userId);
    if (!account) return { ok: false, reason: 'user_quota' };
    const token = tokenId === 0 ? undefined : this.tokens.get(tokenId);
    if (tokenId !== 0 && !token) return { ok: false, reason: 'token_quota' };
    // Quota units are integers; an estimate with a fraction reserves the next whole unit.
    let amount = Math.ceil(wanted);
    const least = Math.min(amount, Math.ceil(floor));
    let limitedBy: LimitReason | undefined;
    // Each limit in turn: below the floor refuses, below the amount lowers it.
    let free = this.spendable(userId, account);
    if (free < least) return this.refusal('user_quota', account, free, least);
    if (free < amount) {
      amount = free;
      limitedBy = 'user_quota';
    }
    if (token && !token.unlimited) {
      free = this.tokenSpendable(tokenId, token);
      if (free < least) return this.refusal('token_quota', token, free, least);
      if (free < amount) {
        amount = free;
        limitedBy = 'token_quota';
      }
    }
    // Budgets: spent in the current period + open reservations + this one within the limit.
    const at = this.now();
    if (token && token.budgetQuota > 0) {
      free = this.budgetLeft(token, at);
      if (free < least) return this.refusal('token_budget', token, free, least);
      if (free < amount) {
        amount = free;
        limitedBy = 'token_budget';
      }
    }
    if (account.budgetQuota > 0) {
      free = this.budgetLeft(account, at);
      if (free < least) return this.refusal('user_budget', account, free, least);
      if (free < amount) {
        amount = free;
        limitedBy = 'user_budget';
      }
    }
    account.reserved += amount;
    if (token) token.reserved += amount;
    const reservation: Reservation = this.leases
      ? this.leasedReservation(requestId, userId, tokenId, amount, token)
      : { requestId, userId, tokenId, amount };
    this.open.set(requestId, reservation);
    return limitedBy ? { ok: true, reservation, limitedBy } : { ok: true, reservation };
  }

  /**
   * Charges the request's whole cost and ends its reservation. A cost past the reservation (an
   * upstream that ignored the ceiling) is charged too: the balance, the token's quota or a budget
   * may go below 0 by it, a debt (docs/ledger.md). Returns the quota charged (0 when the
   * reservation was already ended).
   */
  settle(reservation: Reservation, actual: number): number {
    if (!this.open.delete(reservation.requestId)) return 0;
    this.unreserve(reservation);
    const charged = Math.max(0, Math.floor(actual));
    this.charge(reservation.userId, reservation.tokenId, charged, this.now());
    this.settledLocally.set(reservation.requestId, charged);
    this.chargeLeases(reservation, charged, true);
    return charged;
  }

  release(reservation: Reservation): void {
    if (this.open.delete(reservation.requestId)) this.unreserve(reservation);
  }

  /**
   * `listener(userId)` runs (on a microtask, never inside a reserve or settle) after a user's
   * spendable may have grown: a reservation of theirs ended, or a credit or a token change came.
   * The relay's waiting requests try again then.
   */
  onFreed(listener: (userId: number) => void): void {
    this.freedListener = listener;
  }

  /**
   * The refusal when `subject` has only `free` of the `least` a request needs: waitable when its
   * open reservations could make that fit once they settle.
   */
  private refusal(
    reason: LimitReason,
    subject: Budgeted,
    free: number,
    least: number,
  ): Extract<ReserveResult, { ok: false }> {
    const refusal: QuotaRefusal | BudgetRefusal =
      reason === 'user_quota' || reason === 'token_quota'
        ? { ok: false, reason }
        : this.budgetRefusal(subject, reason);
    return subject.reserved > 0 && free + subject.reserved >= least
      ? { ...refusal, waitable: true }
      : refusal;
  }

  private freed(userId: number): void {
    if (!this.freedListener) return;
    if (this.freedUsers.size === 0)
      queueMicrotask(() => {
        const users = [...this.freedUsers];
        this.freedUsers.clear();
        for (const id of users) this.freedListener?.(id);
      });
    this.freedUsers.add(userId);
  }

  /** Quota the user can still spend (credits − charges − open reservations). */
  userBalance(userId: number): number | undefined {
    const account = this.users.get(userId);
    return account ? available(account) : undefined;
  }

  /** Credits − charges, ignoring open reservations: the balance an admin edits. */
  settledBalance(userId: number): number | undefined {
    const account = this.users.get(userId);
    return account ? account.credited - account.charged : undefined;
  }

  /** Infinity when unlimited; undefined when unknown. */
  tokenRemaining(tokenId: number): number | undefined {
    const token = this.tokens.get(tokenId);
    if (!token) return undefined;
    return token.unlimited ? Infinity : tokenLeft(token);
  }

  /** The cap − charges since it was set, ignoring open reservations (the ledger check compares it). */
  tokenSettledRemaining(tokenId: number): number | undefined {
    const token = this.tokens.get(tokenId);
    return token ? token.cap - token.chargedSinceCap : undefined;
  }

  /** Σ quota charged to the token so far. */
  tokenUsed(tokenId: number): number | undefined {
    return this.tokens.get(tokenId)?.used;
  }

  /**
   * What `userId` may reserve here: the whole balance in single-process mode; with leases, what is
   * left of this process's lease (none when it is about to expire: it must be renewed first).
   */
  private spendable(userId: number, account: Account): number {
    if (!this.leases) return available(account);
    const lease = this.leases.user.usable(userId, this.leaseMarginMs);
    return lease ? lease.amount - lease.spent - account.reserved : 0;
  }

  /** The same for a limited token's quota. */
  private tokenSpendable(tokenId: number, token: TokenAccount): number {
    if (!this.leases) return tokenLeft(token);
    const lease = this.leases.token.usable(tokenId, this.leaseMarginMs);
    return lease ? lease.amount - lease.spent - token.reserved : 0;
  }

  /** Scale-out: the reservation names the leases it draws on (and marks them used now). */
  private leasedReservation(
    requestId: string,
    userId: number,
    tokenId: number,
    amount: number,
    token: TokenAccount | undefined,
  ): Reservation {
    const leaseId = this.leases?.user.touch(userId);
    const tokenLeaseId = token && !token.unlimited ? this.leases?.token.touch(tokenId) : undefined;
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
  private chargeLeases(
    of: Pick<Reservation, 'userId' | 'tokenId' | 'leaseId' | 'tokenLeaseId'>,
    amount: number,
    spent: boolean,
  ): void {
    if (of.leaseId) this.leases?.user.charge(of.userId, of.leaseId, amount, spent);
    if (of.tokenLeaseId) this.leases?.token.charge(of.tokenId, of.tokenLeaseId, amount, spent);
  }

  /** The lease this process holds on a user's balance or a token's quota, if any. */
  heldLease(kind: 'user' | 'token', id: number): HeldLease | undefined {
    const reserved = (kind === 'user' ? this.users : this.tokens).get(id)?.reserved ?? 0;
    return this.leases?.[kind].held(id, reserved);
  }

  /** Every lease this process holds (the keeper renews or returns them). */
  heldLeases(): HeldLease[] {
    const leases = this.leases;
    if (!leases) return [];
    return (['user', 'token'] as const).flatMap((kind) =>
      leases[kind].heldIds().map((id) => this.heldLease(kind, id)!),
    );
  }

  /** Other processes' leases past `expiresAt + graceMs`: their holders went silent. */
  silentLeases(graceMs: number): { kind: 'user' | 'token'; id: number; leaseId: string }[] {
    if (!this.leases) return [];
    return [...this.leases.user.silent(graceMs), ...this.leases.token.silent(graceMs)];
  }

  /**
   * What this process has seen of the charges on a user's balance or a token's quota, for a lease
   * decision on its stream at `atVersion` (LeaseView): what is settled (a user's credits −
   * charges; a token's cap − charges since it was set) and the charges seen under each open lease.
   */
  leaseView(kind: 'user' | 'token', id: number, atVersion: number): LeaseView {
    const settled =
      kind === 'user' ? (this.settledBalance(id) ?? 0) : (this.tokenSettledRemaining(id) ?? 0);
    return { settled, seen: this.leases?.[kind].seen(id) ?? {}, atVersion };
  }

  /**
   * A figure that moves whenever what could be leased may have grown: a credit or a charge (the
   * settled figure) or a lease opened, renewed or closed anywhere.
   */
  leaseChanges(kind: 'user' | 'token', id: number): string {
    const view = this.leaseView(kind, id, 0);
    return `${view.settled}:${this.leases?.[kind].eventsApplied(id) ?? 0}`;
  }

  private unreserve(reservation: Reservation): void {
    this.account(reservation.userId).reserved -= reservation.amount;
    const token = this.tokens.get(reservation.tokenId);
    if (token) token.reserved -= reservation.amount;
    this.freed(reservation.userId);
  }

  /** The refusal of a request the budget of a user or token has no room for. */
  private budgetRefusal(subject: Budgeted, reason: BudgetRefusal['reason']): BudgetRefusal {
    const window = this.current(PERIOD_INDEX[subject.budgetPeriod], this.now());
    return {
      ok: false,
      reason,
      limit: subject.budgetQuota,
      period: subject.budgetPeriod,
      resetAt: window.end,
    };
  }

  private budgetLeft(subject: Budgeted, at: number): number {
    const index = PERIOD_INDEX[subject.budgetPeriod];
    const window = this.current(index, at);
    const spent = subject.spend.starts[index] === window.start ? subject.spend.spent[index]! : 0;
    return subject.budgetQuota - spent - subject.reserved;
  }

  /** The window of period `index` at `at`, moved forward when `at` passed its end (never back). */
  private current(index: number, at: number): Window {
    const window = this.windows[index]!;
    if (at >= window.end) {
      const period = PERIODS[index]!;
      window.start = periodStartMs(period, at, this.timeZone);
      window.end = periodEndMs(period, at, this.timeZone);
    }
    return window;
  }

  /** Adds a charge made at `at` to the current periods (one of an earlier period counts in none). */
  private countPeriods(spend: PeriodSpend, amount: number, at: number): void {
    for (let i = 0; i < 3; i++) {
      const window = this.current(i, at);
      if (at < window.start) continue;
      if (spend.starts[i] !== window.start) {
        spend.starts[i] = window.start;
        spend.spent[i] = 0;
      }
      // A refund gives back at most what the period holds.
      spend.spent[i] = Math.max(0, spend.spent[i]! + amount);
    }
  }

  private charge(userId: number, tokenId: number, amount: number, at: number): void {
    const account = this.account(userId);
    account.charged += amount;
    this.countPeriods(account.spend, amount, at);
    const token = tokenId === 0 ? undefined : this.tokens.get(tokenId);
    if (token) {
      token.used += amount;
      token.chargedSinceCap += amount;
      this.countPeriods(token.spend, amount, at);
    }
  }

  private applyReceipt(receipt: RequestRelayed['data'], at: number): void {
    const settled = this.settledLocally.get(receipt.requestId);
    if (settled !== undefined) {
      // Already charged by settle(): only a difference (normally none) is applied.
      this.settledLocally.delete(receipt.requestId);
      if (receipt.quota !== settled) {
        this.charge(receipt.userId, receipt.tokenId, receipt.quota - settled, at);
        this.chargeLeases(receipt, receipt.quota - settled, true);
      }
      return;
    }
    const open = this.open.get(receipt.requestId);
    if (open) {
      // The receipt overtook the settle: it is the settle.
      this.open.delete(receipt.requestId);
      this.unreserve(open);
    }
    this.charge(receipt.userId, receipt.tokenId, receipt.quota, at);
    // Spent by this process when it overtook this process's own settle.
    this.chargeLeases(receipt, receipt.quota, open !== undefined);
  }

  /**
   * A failed task's charge given back (its receipt was charged like any other): the user's charges
   * and the token's go down by the whole quota. The token's remaining goes back up even past the
   * cap its owner set (new-api's `remain_quota += quota`).
   */
  private applyRefund(refund: TaskRefunded['data'], at: number): void {
    this.charge(refund.userId, refund.tokenId, -refund.quota, at);
  }

  private applyBilling(event: BillingEvent): void {
    const account = this.account(event.data.userId);
    if (event.type === 'BalanceImported') {
      // As if quota + used had been credited and used charged (balance = quota, as imported).
      account.credited += event.data.quota + event.data.usedQuota;
      account.charged += event.data.usedQuota;
      return;
    }
    account.credited += balanceDelta(event); // the credit rule (an invitation reward: 0)
    if (event.type === 'BudgetSet') {
      account.budgetQuota = event.data.period ? event.data.periodQuota : 0;
      account.budgetPeriod = event.data.period || 'day';
    }
    this.freed(event.data.userId);
  }

  private applyToken(event: TokenEvent): void {
    switch (event.type) {
      case 'TokenCreated':
        this.tokens.set(event.data.tokenId, {
          unlimited: event.data.unlimitedQuota,
          cap: event.data.remainQuota,
          chargedSinceCap: 0,
          used: 0,
          reserved: 0,
          ...budgetOf(event.data),
          spend: newSpend(),
        });
        return;
      case 'TokenUpdated': {
        const token = this.tokens.get(event.data.tokenId);
        if (!token) return;
        token.unlimited = event.data.unlimitedQuota;
        token.cap = event.data.remainQuota;
        token.chargedSinceCap = 0;
        // A new cap ends the leases on the old one (as the token stream's state does).
        this.leases?.token.drop(event.data.tokenId);
        // The spend of the current period stays: a budget set or changed mid-period counts it.
        Object.assign(token, budgetOf(event.data));
        this.freed(event.data.userId);
        return;
      }
      case 'TokenDeleted':
        this.tokens.delete(event.data.tokenId);
        this.leases?.token.drop(event.data.tokenId);
        return;
      case 'TokenImported':
        if (event.data.deleted) return;
        // The remaining quota it was imported with is its cap; what it used before is history.
        this.tokens.set(event.data.tokenId, {
          unlimited: event.data.unlimitedQuota,
          cap: event.data.remainQuota,
          chargedSinceCap: 0,
          used: event.data.usedQuota,
          reserved: 0,
          ...budgetOf(event.data),
          spend: newSpend(),
        });
        return;
      case 'TokenStatusChanged':
        return;
    }
  }

  private account(userId: number): Account {
    let account = this.users.get(userId);
    if (!account) {
      account = {
        credited: 0,
        charged: 0,
        reserved: 0,
        budgetQuota: 0,
        budgetPeriod: 'day',
        spend: newSpend(),
      };
      this.users.set(userId, account);
    }
    return account;
  }
}

const available = (a: Account): number => a.credited - a.charged - a.reserved;
const tokenLeft = (t: TokenAccount): number => t.cap - t.chargedSinceCap - t.reserved;

/** A token's budget from its settings (events before budgets have none). */
const budgetOf = (settings: {
  periodQuota?: number;
  period?: BudgetPeriod;
}): Pick<Budgeted, 'budgetQuota' | 'budgetPeriod'> => ({
  budgetQuota: settings.period ? (settings.periodQuota ?? 0) : 0,
  budgetPeriod: settings.period ?? 'day',
});
