import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
  type Subscription,
} from '@tollgate/event-store';
import { EVENT_STORE } from '../injection-tokens';
import type { HotCache } from './hot-cache';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;

/**
 * One `$all` subscription per process that replays the log into every registered hot cache, then
 * stays live. Caches register in their constructor or `onModuleInit`; `start` runs at bootstrap.
 * `waitFor(position)` lets a command handler answer only once the caches show its change.
 */
@Injectable()
export class CacheFeed implements OnApplicationShutdown {
  private readonly logger = new Logger(CacheFeed.name);
  private readonly caches: HotCache[] = [];
  private readonly byType = new Map<string, HotCache[]>();
  private subscription: Subscription | undefined;
  private current: Position | null = null;
  private readonly waiters = new Set<() => void>();
  private started = false;
  private caughtUp: (() => void) | undefined;
  /** Set until the first catch-up: a failure then rejects `start`. */
  private startFailed: ((error: Error) => void) | undefined;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  register(cache: HotCache): void {
    if (this.started) throw new Error(`Hot cache ${cache.name} registered after start`);
    this.caches.push(cache);
    for (const type of cache.eventTypes) {
      const list = this.byType.get(type) ?? [];
      list.push(cache);
      this.byType.set(type, list);
    }
  }

  /** Replays the whole log into the caches; resolves once caught up, then follows live. */
  start(): Promise<void> {
    this.started = true;
    return new Promise<void>((resolve, reject) => {
      this.caughtUp = resolve;
      this.startFailed = reject;
      this.subscribe();
    });
  }

  /**
   * A subscription that fails is over. At start-up that fails the boot; afterwards the feed
   * resubscribes from the last delivered position with backoff, or the relay would go on reading
   * caches frozen at the failure.
   */
  private subscribe(): void {
    if (this.stopped) return;
    this.subscription = this.store.subscribeToAll(
      { fromPosition: this.current ?? 'start', maxBatchSize: 2000 },
      {
        onEvents: (events) => this.deliver(events),
        onCaughtUp: () => {
          this.retryMs = FIRST_RETRY_MS;
          this.startFailed = undefined;
          this.caughtUp?.();
        },
        onError: (error) => {
          this.logger.error(`cache subscription stopped: ${error.stack ?? error.message}`);
          if (this.startFailed) return this.startFailed(error);
          if (this.stopped) return;
          this.retryTimer = setTimeout(() => this.subscribe(), this.retryMs);
          this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
        },
      },
    );
  }

  /** Position of the last event delivered to the caches; null before the first. */
  position(): Position | null {
    return this.current;
  }

  hasReached(position: Position): boolean {
    return this.current !== null && comparePositions(this.current, position) >= 0;
  }

  /** True once the caches have seen `position`; false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs = 5000): Promise<boolean> {
    if (this.hasReached(position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const check = () => {
        if (!this.hasReached(position)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  private deliver(events: readonly RecordedEvent[]): void {
    const perCache = new Map<HotCache, RecordedEvent[]>();
    for (const event of events) {
      for (const cache of this.byType.get(event.type) ?? []) {
        const list = perCache.get(cache);
        if (list) list.push(event);
        else perCache.set(cache, [event]);
      }
    }
    for (const [cache, batch] of perCache) {
      try {
        cache.apply(batch);
      } catch (error) {
        // A cache bug must not stop the others (or the relay); it is logged loudly instead.
        this.logger.error(`${cache.name}: ${(error as Error).stack ?? String(error)}`);
      }
    }
    const last = events[events.length - 1];
    if (last) this.current = last.position;
    for (const waiter of [...this.waiters]) waiter();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.subscription?.stop();
  }
}
