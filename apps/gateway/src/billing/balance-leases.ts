import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { billingDecider, DomainError, SYSTEM_ACTOR, type BillingCommand } from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import type { AppConfig } from '../config/app-config';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { APP_CONFIG, EVENT_STORE } from '../infrastructure/injection-tokens';
import { PendingWrites } from '../infrastructure/pending-writes';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { UsageAppender } from '../usage/usage-appender';
import { BalanceBook, type HeldLease } from './balance-book';

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
  private readonly inFlight = new Map<number, Promise<boolean>>();
  /**
   * Users whose balance had not `amount` free at the last try: a broke user's flood of requests
   * must not become a flood of stream reads. Tried again for less, once the balance or the leases
   * moved (book.leaseChanges), or after REFUSAL_MEMORY_MS.
   */
  private readonly refused = new Map<number, { amount: number; changes: string; at: number }>();
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
   * Makes this process's lease on `userId` cover `amount` more (taking or topping up a slice).
   * False when the balance has not that much free. Calls for one user share one attempt.
   */
  ensure(userId: number, amount: number): Promise<boolean> {
    if (!this.active || this.stopping) return Promise.resolve(false);
    const refusal = this.refused.get(userId);
    if (refusal) {
      const same =
        amount >= refusal.amount &&
        this.book.leaseChanges(userId) === refusal.changes &&
        Date.now() - refusal.at < REFUSAL_MEMORY_MS;
      if (same) return Promise.resolve(false);
      this.refused.delete(userId);
    }
    const running = this.inFlight.get(userId);
    if (running)
      return running.then(() => this.covers(userId, amount) || this.ensure(userId, amount));
    const attempt = this.lease(userId, Math.ceil(amount)).finally(() =>
      this.inFlight.delete(userId),
    );
    this.inFlight.set(userId, attempt);
    return attempt;
  }

  private covers(userId: number, amount: number): boolean {
    const held = this.book.heldLease(userId);
    return !!held && held.left >= amount && !this.lapsing(held);
  }

  private lapsing(lease: HeldLease): boolean {
    return lease.expiresAt - this.timings.marginMs <= Date.now();
  }

  private async lease(userId: number, amount: number): Promise<boolean> {
    try {
      const held = this.book.heldLease(userId);
      // What the held lease lacks for this request; a lease about to lapse is renewed as well.
      const minimum = Math.max(0, amount - (held?.left ?? 0));
      if (held && minimum === 0 && !this.lapsing(held)) return true;
      const leased = await this.decide(userId, (view) => ({
        type: 'LeaseBalance',
        userId,
        leaseId: held?.leaseId ?? randomUUID(),
        holder: this.holder,
        minimum: held ? minimum : Math.max(1, amount),
        want: Math.max(minimum, amount, this.slice),
        ttlMs: this.timings.ttlMs,
        view,
      }));
      if (!leased)
        this.refused.set(userId, {
          amount,
          changes: this.book.leaseChanges(userId),
          at: Date.now(),
        });
      return leased;
    } catch (error) {
      this.logger.error(`lease for user ${userId}: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * One lease decision, taken with the book caught up with the stream: a view older than the
   * stream (another process leased or returned meanwhile) is taken again. True when it appended.
   */
  private async decide(
    userId: number,
    command: (view: ReturnType<BalanceBook['leaseView']>) => BillingCommand,
  ): Promise<boolean> {
    const stream = `billing-${userId}`;
    for (let attempt = 1; ; attempt += 1) {
      const { state } = await this.streams.load(stream, billingDecider);
      const [last] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      if (last) await this.caches.waitFor(last.position);
      try {
        const view = this.book.leaseView(userId, state.version ?? 0);
        const decided = await this.streams.execute(stream, billingDecider, command(view), META);
        if (!decided.position) return false;
        // The book holds the new lease once it has applied the event.
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
        else if (lease.expiresAt - now <= this.timings.renewBeforeMs) await this.renew(lease);
      }
      for (const { userId, leaseId } of this.book.silentLeases(this.timings.graceMs))
        await this.streams.execute(
          `billing-${userId}`,
          billingDecider,
          { type: 'ExpireLease', userId, leaseId, graceMs: this.timings.graceMs },
          META,
        );
    } catch (error) {
      this.logger.error(`lease keeper: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private async renew(lease: HeldLease): Promise<void> {
    await this.decide(lease.userId, (view) => ({
      type: 'LeaseBalance',
      userId: lease.userId,
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
    const now = this.book.heldLease(lease.userId);
    if (!now || now.leaseId !== lease.leaseId || now.busy) return;
    const decided = await this.streams.execute(
      `billing-${lease.userId}`,
      billingDecider,
      {
        type: 'ReturnLease',
        userId: lease.userId,
        leaseId: lease.leaseId,
        holder: this.holder,
        spent: now.spent,
      },
      META,
    );
    if (decided.position) await this.caches.waitFor(decided.position);
  }

  /** A shutdown gives every lease back (after the usage appender drained: see the constructor). */
  private async returnAll(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const lease of this.book.heldLeases()) {
      try {
        await this.giveBack({ ...lease, busy: false });
      } catch (error) {
        this.logger.warn(`lease of user ${lease.userId} not returned: ${(error as Error).message}`);
      }
    }
  }
}

const META: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'balance-lease', lang: 'en' };
