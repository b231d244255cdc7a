import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  BILLING_EVENT_TYPES,
  LEASE_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  TOKEN_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type BillingEvent,
  type BudgetPeriod,
  type LeaseEvent,
  type LeaseView,
  type LeaseWindow,
  type RequestRelayed,
  type TaskRefunded,
  type TokenEvent,
  type UsageSummarized,
} from '@tollgate/domain';
import { eventTimeMs } from '@tollgate/event-store';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { SummarySources, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import {
  type Account,
  applyBillingEvent,
  applyTokenEvent,
  available,
  newAccount,
  type TokenAccount,
  type TokenEffects,
  tokenLeft,
} from './balance-accounts';
import type { LimitReason, Reservation, ReserveResult } from './balance-terms';
import { BookLeases, LEASE_KINDS } from './book-leases';
import type { HeldLease, LeaseKind, SilentLease } from './lease-ledger';
import { PeriodWindows } from './period-windows';
import { defaultTimeZone } from './time-zone';

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
    ...USAGE_SUMMARY_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
    ...LEASE_EVENT_TYPES,
  ];

  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, TokenAccount>();
  private readonly open = new Map<string, Reservation>();
  /** Settled here, receipt not yet seen: requestId → quota charged. */
  private readonly settledLocally = new Map<string, number>();
  /** The usage streams whose receipts were counted (a summary of one of them is not). */
  private readonly summarySources = new SummarySources();
  /** The budgets' current day, week and month. */
  private readonly periods = new PeriodWindows(Date.now(), defaultTimeZone());
  /**
   * Scale-out (useLeases): a user's balance and a limited token's quota are then spent only from
   * the lease this process holds on them. Undefined in single-process mode: all of it is here.
   */
  private leases: BookLeases | undefined;
  private now: () => number = Date.now;
  /** Told (on a later microtask, the book consistent again) when a user's spendable may have grown. */
  private freedListener: ((userId: number) => void) | undefined;
  private readonly freedUsers = new Set<number>();
  private readonly tokenEffects: TokenEffects = {
    capEnded: (tokenId) => {
      this.leases?.token.drop(tokenId);
      this.leases?.['token-budget'].drop(tokenId);
    },
    freed: (userId) => this.freed(userId),
  };

  /** The clock of reserves and settles and the zone of the periods (tests inject both). */
  useClock(now: () => number, timeZone: string = this.periods.zone): void {
    this.now = now;
    this.periods.reset(now(), timeZone);
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
    const spend = (kind === 'user' ? this.users : this.tokens).get(id)?.spend;
    return this.periods.use(spend, period, this.now());
  }

  /** Scale-out: spend users' quota only from the leases `holder` (this process) takes. */
  useLeases(holder: string, marginMs: number): void {
    this.leases = new BookLeases(holder, marginMs, () => this.now());
  }

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'UserRegistered':
        case 'UserImported':
          this.account((event.data as { userId: number }).userId);
          break;
        case 'RequestRelayed':
          this.summarySources.receipt(event.streamId);
          this.applyReceipt((event as unknown as RequestRelayed).data, eventTimeMs(event));
          break;
        case 'UsageSummarized': {
          // Its rows at the hour's start, when none of its source's receipts were counted here.
          const summary = (event as unknown as UsageSummarized).data;
          for (const row of this.summarySources.rows(summary))
            this.charge(row.userId, row.tokenId, row.quota, summary.hourStart);
          break;
        }
        case 'TaskRefunded': {
          // A failed task's charge given back, the token's even past its cap (new-api's
          // `remain_quota += quota`).
          const refund = (event as unknown as TaskRefunded).data;
          this.charge(refund.userId, refund.tokenId, -refund.quota, eventTimeMs(event));
          break;
        }
        default:
          if ((LEASE_EVENT_TYPES as readonly string[]).includes(event.type))
            this.leases?.apply({ type: event.type, data: event.data } as LeaseEvent);
          else if ((BILLING_EVENT_TYPES as readonly string[]).includes(event.type)) {
            const billing = { type: event.type, data: event.data } as BillingEvent;
            // A new budget ends the leases on the old one (as the billing stream's state does).
            if (billing.type === 'BudgetSet')
              this.leases?.['user-budget'].drop(billing.data.userId);
            if (applyBillingEvent(this.account(billing.data.userId), billing))
              this.freed(billing.data.userId);
          } else {
            const tokenEvent = { type: event.type, data: event.data } as TokenEvent;
            applyTokenEvent(this.tokens, tokenEvent, this.tokenEffects);
          }
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
    const at = this.now();
    // Each limit in turn: below the floor refuses, below the amount lowers it.
    let free = this.spendable(userId, account);
    if (free < least) return this.periods.refusal('user_quota', account, free, least, at);
    if (free < amount) {
      amount = free;
      limitedBy = 'user_quota';
    }
    if (token && !token.unlimited) {
      free = this.tokenSpendable(tokenId, token);
      if (free < least) return this.periods.refusal('token_quota', token, free, least, at);
      if (free < amount) {
        amount = free;
        limitedBy = 'token_quota';
      }
    }
    // Budgets: spent in the current period + open reservations + this one within the limit.
    if (token && token.budgetQuota > 0) {
      free = this.periods.budgetLeft(token, at);
      // Scale-out: and no more than this process's lease on the budget of this window.
      if (this.leases)
        free = Math.min(free, this.leases.spendable('token-budget', tokenId, token.reserved));
      if (free < least) return this.periods.refusal('token_budget', token, free, least, at);
      if (free < amount) {
        amount = free;
        limitedBy = 'token_budget';
      }
    }
    if (account.budgetQuota > 0) {
      free = this.periods.budgetLeft(account, at);
      if (this.leases)
        free = Math.min(free, this.leases.spendable('user-budget', userId, account.reserved));
      if (free < least) return this.periods.refusal('user_budget', account, free, least, at);
      if (free < amount) {
        amount = free;
        limitedBy = 'user_budget';
      }
    }
    account.reserved += amount;
    if (token) token.reserved += amount;
    const reservation: Reservation = this.leases
      ? this.leases.reservation(requestId, userId, tokenId, amount, {
          token: !!token && !token.unlimited,
          userBudget: account.budgetQuota > 0,
          tokenBudget: !!token && token.budgetQuota > 0,
        })
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
    this.leases?.charge(reservation, charged, true);
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
   * left of this process's lease.
   */
  private spendable(userId: number, account: Account): number {
    return this.leases
      ? this.leases.spendable('user', userId, account.reserved)
      : available(account);
  }

  /** The same for a limited token's quota. */
  private tokenSpendable(tokenId: number, token: TokenAccount): number {
    return this.leases ? this.leases.spendable('token', tokenId, token.reserved) : tokenLeft(token);
  }

  /** The lease this process holds on a user's balance, a token's quota or either's budget. */
  heldLease(kind: LeaseKind, id: number): HeldLease | undefined {
    const reserved = this.budgeted(kind, id)?.reserved ?? 0;
    return this.leases?.[kind].held(id, reserved);
  }

  /** Every lease this process holds (the keeper renews or returns them). */
  heldLeases(): HeldLease[] {
    return LEASE_KINDS.flatMap((kind) =>
      (this.leases?.[kind].heldIds() ?? []).map((id) => this.heldLease(kind, id)!),
    );
  }

  /** Leases past `expiresAt + graceMs` their holders no longer keep (LeaseLedger.silent). */
  silentLeases(graceMs: number): SilentLease[] {
    return LEASE_KINDS.flatMap((kind) => this.leases?.[kind].silent(graceMs) ?? []);
  }

  /**
   * The current period window of a user's or token's budget (a budget lease is of one window);
   * undefined without a budget.
   */
  budgetWindow(kind: 'user-budget' | 'token-budget', id: number): LeaseWindow | undefined {
    const subject = this.budgeted(kind, id);
    if (!subject || subject.budgetQuota <= 0) return undefined;
    const { budgetPeriod: period } = subject;
    return { period, ...this.periods.window(period, this.now()) };
  }

  /**
   * What this process has seen of the charges on a user's balance or a token's quota, for a lease
   * decision on its stream at `atVersion` (LeaseView): what is settled (a user's credits −
   * charges; a token's cap − charges since it was set) and the charges seen under each open lease.
   * For a budget: the budget less what its current window was charged, and the charges seen under
   * the open leases of that window.
   */
  leaseView(kind: LeaseKind, id: number, atVersion: number): LeaseView {
    if (kind === 'user-budget' || kind === 'token-budget') {
      const window = this.budgetWindow(kind, id);
      const subject = this.budgeted(kind, id);
      if (!window || !subject) return { settled: 0, seen: {}, atVersion };
      const { used } = this.periods.use(subject.spend, window.period, this.now());
      const seen = this.leases?.[kind].seen(id, window) ?? {};
      return { settled: subject.budgetQuota - used, seen, atVersion };
    }
    const settled =
      kind === 'user' ? (this.settledBalance(id) ?? 0) : (this.tokenSettledRemaining(id) ?? 0);
    return { settled, seen: this.leases?.[kind].seen(id) ?? {}, atVersion };
  }

  /**
   * A figure that moves whenever what could be leased may have grown: a credit or a charge (the
   * settled figure) or a lease opened, renewed or closed anywhere.
   */
  leaseChanges(kind: LeaseKind, id: number): string {
    const view = this.leaseView(kind, id, 0);
    return `${view.settled}:${this.leases?.[kind].eventsApplied(id) ?? 0}`;
  }

  /** The user or token account a lease kind spends from. */
  private budgeted(kind: LeaseKind, id: number): Account | TokenAccount | undefined {
    return kind === 'user' || kind === 'user-budget' ? this.users.get(id) : this.tokens.get(id);
  }

  private unreserve(reservation: Reservation): void {
    this.account(reservation.userId).reserved -= reservation.amount;
    const token = this.tokens.get(reservation.tokenId);
    if (token) token.reserved -= reservation.amount;
    this.freed(reservation.userId);
  }

  private charge(userId: number, tokenId: number, amount: number, at: number): void {
    const account = this.account(userId);
    account.charged += amount;
    this.periods.count(account.spend, amount, at);
    const token = tokenId === 0 ? undefined : this.tokens.get(tokenId);
    if (token) {
      token.used += amount;
      token.chargedSinceCap += amount;
      this.periods.count(token.spend, amount, at);
    }
  }

  private applyReceipt(receipt: RequestRelayed['data'], at: number): void {
    const settled = this.settledLocally.get(receipt.requestId);
    if (settled !== undefined) {
      // Already charged by settle(): only a difference (normally none) is applied.
      this.settledLocally.delete(receipt.requestId);
      if (receipt.quota !== settled) {
        this.charge(receipt.userId, receipt.tokenId, receipt.quota - settled, at);
        this.leases?.charge(receipt, receipt.quota - settled, true);
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
    this.leases?.charge(receipt, receipt.quota, open !== undefined);
  }

  private account(userId: number): Account {
    let account = this.users.get(userId);
    if (!account) {
      account = newAccount();
      this.users.set(userId, account);
    }
    return account;
  }
}
