import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { concurrencySlotsDecider, concurrencySlotsStream, SYSTEM_ACTOR } from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { UsageAppender } from '../usage/usage-appender';

/** Hold changes one request waits for before it is refused (each shared by the token's requests). */
const MAX_CHANGES = 3;

/** This process's hold on one token's slots. */
interface Hold {
  readonly tokenId: number;
  limit: number;
  /** Slots recorded as this process's, until `expiresAt`. */
  held: number;
  expiresAt: number;
  /** Requests running on the hold. */
  inFlight: number;
  /** Requests waiting for the hold to grow. */
  waiting: number;
  lastUsedAt: number;
  /** The hold change under way, shared. */
  changing?: Promise<boolean>;
}

/**
 * Scale-out only (SCALE_OUT=on): a token's concurrency limit held across processes. A process
 * records on `concurrency-token-<id>` how many slots it holds (libs/domain/src/rate-limit/
 * concurrency-slots.decider.ts); requests run on held slots in memory, a hold grows (awaited) when
 * all its slots are busy, is renewed while busy and shrinks back once idle. A killed process's
 * hold lapses by itself after LEASE_TTL_MS.
 */
@Injectable()
export class ConcurrencySlots implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ConcurrencySlots.name);
  readonly active: boolean;
  private readonly holds = new Map<number, Hold>();
  private readonly ttlMs: number;
  /** No request starts on a hold this close to its expiry (it renews first). */
  private readonly marginMs: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'scaleOut' | 'leaseTtlMs'>,
    private readonly streams: StreamCommands,
    private readonly appender: UsageAppender,
  ) {
    this.active = config.scaleOut;
    this.ttlMs = config.leaseTtlMs;
    this.marginMs = Math.round(config.leaseTtlMs / 6);
  }

  onApplicationBootstrap(): void {
    if (!this.active) return;
    this.timer = setInterval(() => void this.tick(), Math.max(50, Math.round(this.marginMs / 2)));
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** One slot of the token's `limit` for a request: true (then `release` it), or false. */
  acquire(tokenId: number, limit: number): boolean | Promise<boolean> {
    let hold = this.holds.get(tokenId);
    if (!hold) {
      hold = { tokenId, limit, held: 0, expiresAt: 0, inFlight: 0, waiting: 0, lastUsedAt: 0 };
      this.holds.set(tokenId, hold);
    }
    hold.limit = limit;
    if (this.free(hold)) {
      this.start(hold);
      return true;
    }
    return this.grow(hold);
  }

  release(tokenId: number): void {
    const hold = this.holds.get(tokenId);
    if (hold && hold.inFlight > 0) hold.inFlight -= 1;
  }

  private free(hold: Hold): boolean {
    return hold.inFlight < hold.held && hold.expiresAt - this.marginMs > Date.now();
  }

  private start(hold: Hold): void {
    hold.inFlight += 1;
    hold.lastUsedAt = Date.now();
  }

  /** Grows the hold to cover the running and waiting requests; false when the limit is reached. */
  private async grow(hold: Hold): Promise<boolean> {
    hold.waiting += 1;
    try {
      for (let attempt = 0; attempt < MAX_CHANGES; attempt++) {
        const changed = await this.change(hold, () => hold.inFlight + hold.waiting);
        if (this.free(hold)) {
          this.start(hold);
          return true;
        }
        if (!changed) return false;
      }
      return false;
    } finally {
      hold.waiting -= 1;
    }
  }

  /**
   * Records the hold at `slots()`; true when it was recorded. A change under way is shared: its
   * callers look again once it is done.
   */
  private change(hold: Hold, slots: () => number): Promise<boolean> {
    hold.changing ??= this.record(hold, slots()).finally(() => {
      hold.changing = undefined;
    });
    return hold.changing;
  }

  private async record(hold: Hold, slots: number): Promise<boolean> {
    try {
      const decided = await this.streams.execute(
        concurrencySlotsStream(hold.tokenId),
        concurrencySlotsDecider,
        {
          type: 'HoldSlots',
          processId: this.appender.processId,
          slots,
          limit: hold.limit,
          ttlMs: this.ttlMs,
        },
        META,
      );
      const [event] = decided.events;
      if (!event) return false;
      hold.held = event.data.slots;
      hold.expiresAt = event.data.expiresAt;
      return true;
    } catch (error) {
      this.logger.error(`concurrency slots of token ${hold.tokenId}: ${(error as Error).message}`);
      return false;
    }
  }

  /** Renews the holds in use before they lapse; gives back the slots idle for a margin. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = Date.now();
      for (const hold of this.holds.values()) {
        if (hold.changing || hold.waiting > 0) continue;
        const idle = now - hold.lastUsedAt >= this.marginMs;
        if (hold.held > hold.inFlight && idle) await this.change(hold, () => hold.inFlight);
        else if (hold.inFlight > 0 && hold.expiresAt - now <= 2 * this.marginMs)
          await this.change(hold, () => hold.held);
        if (hold.held === 0 && hold.inFlight === 0 && hold.waiting === 0)
          this.holds.delete(hold.tokenId);
      }
    } finally {
      this.ticking = false;
    }
  }
}

const META: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'concurrency-slots', lang: 'en' };
