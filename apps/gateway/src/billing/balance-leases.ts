import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  billingDecider,
  DomainError,
  SYSTEM_ACTOR,
  tokenDecider,
  type LeaseAccount,
  type LeaseCommand,
  type LeaseView,
  type LeaseWindow,
  withFields,
} from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import type { AppConfig } from '../config/app-config';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { APP_CONFIG } from '../config/config.tokens';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { PendingWrites } from '../infrastructure/pending-writes';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { UsageAppender } from '../usage/usage-appender';
import { lapsesAt } from './lease-ledger';
import { BalanceBook } from './balance-book';
import type { ReserveResult } from './balance-terms';
import type { HeldLease, LeaseKind } from './lease-ledger';

/** The lease timings (docs/scale-out.md); tests shorten them through LEASE_TTL_MS. */
export interface LeaseTimings {
  /** How long a lease lives unless renewed. */
  readonly ttlMs: number;
  /** A lease in use is renewed once less than this is left (and not spent closer than margin). */
  readonly renewBeforeMs: number;
  /** Not spent in its last this-many ms, so a request never runs on a lease about to lapse. */
  readonly marginMs: number;
  /** Unused this long (no request reserved on it): given back. */
  readonly idleMs: number;
  /** Past its expiry by this much, another process closes a silent holder's lease. */
  readonly graceMs: number;
}

export function leaseTimings(ttlMs: number): LeaseTimings {
  return {
    ttlMs,
    renewBeforeMs: Math.round((ttlMs * 2) / 3),
    marginMs: Math.round(ttlMs / 6),
    idleMs: Math.round(ttlMs / 6),
    graceMs: Math.round(ttlMs / 2),
  };
}

const STALE_ATTEMPTS = 8;
const REFUSAL_MEMORY_MS = 1_000;
/**
 * Lease decisions one reservation may wait on: the user's balance, the token's quota, the two
 * budgets, and a second turn for two of them.
 */
const RESERVE_ATTEMPTS = 6;
/** The lease a refusal lacked, by its reason (in scale-out every limit is held through a lease). */
const LEASE_OF_LIMIT = {
  user_quota: 'user',
  token_quota: 'token',
  user_budget: 'user-budget',
  token_budget: 'token-budget',
} as const;

/**
 * Scale-out only (SCALE_OUT=on): takes, renews, returns and expires the balance leases of this
 * process (libs/domain/src/billing/balance-lease.ts). The relay asks `ensure` when the book refuses
 * a reservation for want of a lease: the one awaited step, taken once per slice, not per request.
 * A keeper tick renews the leases in use, returns the idle ones once their receipts are durable,
 * and closes the leases of processes that went silent.
 */
@Injectable()
export class BalanceLeases implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BalanceLeases.name);
  readonly active: boolean;
  private readonly timings: LeaseTimings;
  /** The slice a lease asks for beyond what the request needs. */
  private readonly slice: number;
  /** Per account (`user-<id>` / `token-<id>`): the lease decision under way. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /**
   * Users whose balance had not `amount` free at the last try: a broke user's flood of requests
   * must not become a flood of stream reads. Tried again for less, once the balance or the leases
   * moved (book.leaseChanges), or after REFUSAL_MEMORY_MS.
   */
  private readonly refused = new Map<string, { amount: number; changes: string; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'scaleOut' | 'leaseTtlMs' | 'leaseSliceQuota'>,
    private readonly book: BalanceBook,
    private readonly streams: StreamCommands,
    private readonly caches: CacheFeed,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly appender: UsageAppender,
    pending: PendingWrites,
  ) {
    this.active = config.scaleOut;
    this.timings = leaseTimings(config.leaseTtlMs);
    this.slice = config.leaseSliceQuota;
    if (!this.active) return;
    this.book.useLeases(this.holder, this.timings.marginMs);
    // After the usage appender's own drain: the receipts under the leases are durable first.
    pending.register(() => this.returnAll());
  }

  get holder(): string {
    return this.appender.processId;
  }

  onApplicationBootstrap(): void {
    if (!this.active) return;
    const every = Math.max(50, Math.round(this.timings.marginMs / 2));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Makes this process's lease on a user's balance (or a limited token's quota) cover `amount`
   * more, taking or topping up a slice. False when not that much is free. Calls for one account
   * share one attempt.
   */
  ensure(kind: LeaseKind, id: number, amount: number, floor = amount): Promise<boolean> {
    if (!this.active || this.stopping) return Promise.resolve(false);
    const key = `${kind}-${id}`;
    const refusal = this.refused.get(key);
    if (refusal) {
      const same =
        amount >= refusal.amount &&
        this.book.leaseChanges(kind, id) === refusal.changes &&
        Date.now() - refusal.at < REFUSAL_MEMORY_MS;
      if (same) return Promise.resolve(false);
      this.refused.delete(key);
    }
    const running = this.inFlight.get(key);
    if (running)
      return running.then(
        () => this.covers(kind, id, amount) || this.ensure(kind, id, amount, floor),
      );
    const attempt = this.lease(kind, id, Math.ceil(amount), Math.ceil(floor)).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, attempt);
    return attempt;
  }

  /**
   * The book's reserve, taking the lease a refusal lacked (the user's, the token's) and trying
   * again, a few times at most: concurrent calls of one account share each lease decision, and
   * a slice may be used up by the others before this call's turn. Only when this process's lease
   * falls short; single-process: the book's reserve as it is.
   */
  async reserve(
    requestId: string,
    userId: number,
    tokenId: number,
    wanted: number,
    floor = wanted,
  ): Promise<ReserveResult> {
    let result = this.book.reserve(requestId, userId, tokenId, wanted, floor);
    for (let attempt = 0; this.active && attempt < RESERVE_ATTEMPTS; attempt++) {
      // Short of a lease (refused, or reserved less than wanted because of one): take or top it
      // up, then reserve again. A budget's allowance is leased per window like a balance.
      const short = result.ok ? result.limitedBy : result.reason;
      if (short === undefined) break;
      const kind = LEASE_OF_LIMIT[short];
      const owner = kind === 'user' || kind === 'user-budget' ? userId : tokenId;
      const leased = await this.ensure(kind, owner, wanted, floor);
      if (!leased) break;
      const before = result;
      if (before.ok) this.book.release(before.reservation);
      result = this.book.reserve(requestId, userId, tokenId, wanted, floor);
      // A partial reservation that did not grow: the balance itself is short, stop asking.
      if (before.ok && result.ok && result.reservation.amount <= before.reservation.amount) break;
    }
    return result;
  }

  private covers(kind: LeaseKind, id: number, amount: number): boolean {
    const held = this.heldNow(kind, id);
    return !!held && held.left >= amount && !this.lapsing(held);
  }

  private lapsing(lease: HeldLease): boolean {
    return lapsesAt(lease, this.timings.marginMs) <= Date.now();
  }

  /** The lease held on the account; for a budget, only one of its current window. */
  private heldNow(kind: LeaseKind, id: number): HeldLease | undefined {
    const held = this.book.heldLease(kind, id);
    if (!held || !isBudget(kind)) return held;
    return held.window?.start === this.book.budgetWindow(kind, id)?.start ? held : undefined;
  }

  /**
   * Takes or tops up the lease so that `amount` more fits, or at least `floor` (a request whose
   * ceiling can be lowered takes what is free).
   */
  private async lease(
    kind: LeaseKind,
    id: number,
    amount: number,
    floor: number,
  ): Promise<boolean> {
    try {
      const window = isBudget(kind) ? this.book.budgetWindow(kind, id) : undefined;
      // No budget (any more): nothing to lease, the book will not ask for it either.
      if (isBudget(kind) && !window) return false;
      const held = this.heldNow(kind, id);
      // What the held lease lacks for this request; a lease about to lapse is renewed as well.
      const lacking = Math.max(0, amount - (held?.left ?? 0));
      if (held && lacking === 0 && !this.lapsing(held)) return true;
      const minimum = Math.max(0, Math.min(lacking, floor - (held?.left ?? 0)));
      const leased = await this.decide(kind, id, (view) => ({
        type: 'LeaseBalance',
        account: accountOf(kind, id, window),
        leaseId: held?.leaseId ?? randomUUID(),
        holder: this.holder,
        minimum: held ? minimum : Math.max(1, floor),
        want: Math.max(minimum, amount, this.slice),
        ttlMs: this.timings.ttlMs,
        view,
      }));
      // A renewal that added nothing made no room, unless the lease only needed its time back.
      const now = this.heldNow(kind, id);
      const usable =
        leased &&
        now !== undefined &&
        (now.amount > (held?.amount ?? 0) || this.covers(kind, id, floor));
      if (!usable)
        this.refused.set(`${kind}-${id}`, {
          amount,
          changes: this.book.leaseChanges(kind, id),
          at: Date.now(),
        });
      return usable;
    } catch (error) {
      this.logger.error(`lease on ${kind} ${id}: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * One lease command on the account's stream. A decision (`view` given) is taken with the book
   * caught up with the stream: a view older than the stream (another process leased or returned
   * meanwhile) is taken again. True when it appended.
   */
  private async decide(
    kind: LeaseKind,
    id: number,
    command: (view: LeaseView) => LeaseCommand,
  ): Promise<boolean> {
    const onBilling = kind === 'user' || kind === 'user-budget';
    const stream = onBilling ? `billing-${id}` : `token-${id}`;
    for (let attempt = 1; ; attempt += 1) {
      const { state } = onBilling
        ? await this.streams.load(stream, billingDecider)
        : await this.streams.load(stream, tokenDecider);
      const [last] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      if (last) await this.caches.waitFor(last.position);
      try {
        const view = this.book.leaseView(kind, id, state.version ?? 0);
        const decided = onBilling
          ? await this.streams.execute(stream, billingDecider, command(view), META)
          : await this.streams.execute(stream, tokenDecider, command(view), META);
        if (!decided.position) return false;
        // The book holds the new lease (or has dropped it) once it has applied the event.
        await this.caches.waitFor(decided.position);
        return true;
      } catch (error) {
        const stale = error instanceof DomainError && error.code === 'billing.lease_stale';
        if (!stale || attempt >= STALE_ATTEMPTS) throw error;
      }
    }
  }

  /** Renews the leases in use, returns the idle ones, closes the silent holders' leases. */
  private async tick(): Promise<void> {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    try {
      const now = Date.now();
      for (const lease of this.book.heldLeases()) {
        if (!lease.busy && now - lease.lastUsedAt >= this.timings.idleMs)
          await this.giveBack(lease);
        else if (lease.expiresAt - now <= this.timings.renewBeforeMs && renewable(lease))
          await this.renew(lease);
      }
      for (const { kind, id, leaseId, window } of this.book.silentLeases(this.timings.graceMs))
        await this.decide(kind, id, () => ({
          type: 'ExpireLease',
          account: accountOf(kind, id, window),
          leaseId,
          graceMs: this.timings.graceMs,
        }));
    } catch (error) {
      this.logger.error(`lease keeper: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private async renew(lease: HeldLease): Promise<void> {
    await this.decide(lease.kind, lease.id, (view) => ({
      type: 'LeaseBalance',
      account: accountOf(lease.kind, lease.id, lease.window),
      leaseId: lease.leaseId,
      holder: this.holder,
      minimum: 0,
      want: 0,
      ttlMs: this.timings.ttlMs,
      view,
    }));
  }

  /** Returned once the receipts charged under it are durable, so `spent` is what they say. */
  private async giveBack(lease: HeldLease): Promise<void> {
    await this.appender.drained();
    const now = this.book.heldLease(lease.kind, lease.id);
    if (!now || now.leaseId !== lease.leaseId || now.busy) return;
    await this.decide(lease.kind, lease.id, () => ({
      type: 'ReturnLease',
      account: accountOf(lease.kind, lease.id, lease.window),
      leaseId: lease.leaseId,
      holder: this.holder,
      spent: now.spent,
    }));
  }

  /** A shutdown gives every lease back (after the usage appender drained: see the constructor). */
  private async returnAll(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const lease of this.book.heldLeases()) {
      try {
        await this.giveBack(withFields(lease, { busy: false }));
      } catch (error) {
        this.logger.warn(
          `lease on ${lease.kind} ${lease.id} not returned: ${(error as Error).message}`,
        );
      }
    }
  }
}

const isBudget = (kind: LeaseKind): kind is 'user-budget' | 'token-budget' =>
  kind === 'user-budget' || kind === 'token-budget';

/** A budget lease already lasting to its window's end has nothing to be renewed into. */
const renewable = (lease: HeldLease): boolean =>
  !lease.window || lease.expiresAt < lease.window.end;

/** The account in a command; on a token stream the decider puts the token's own (owner, id). */
function accountOf(kind: LeaseKind, id: number, window?: LeaseWindow): LeaseAccount {
  const owner =
    kind === 'user' || kind === 'user-budget' ? { userId: id } : { userId: 0, tokenId: id };
  return window ? withFields(owner, { window }) : owner;
}

const META: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'balance-lease', lang: 'en' };
