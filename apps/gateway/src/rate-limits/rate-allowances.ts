import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  allowanceDecider,
  allowanceExhausted,
  allowanceSlice,
  allowanceStream,
  SYSTEM_ACTOR,
  windowStartOf,
} from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { UsageAppender } from '../usage/usage-appender';

/**
 * How many processes a limit is assumed to be shared by when it is cut into slices
 * (libs/domain/src/rate-limit/allowance.decider.ts): a guess only sizes the slices, it never lets
 * more than the limit through.
 */
const PROCESSES_GUESS = 4;
/** Slices one request waits for before it is refused (each shared with the key's other requests). */
const MAX_REFILLS = 3;
/** `holds` admits while at least this much is left (the amount is counted after the answer). */
const MINIMUM_HELD = 1;
/** Old windows' entries are dropped this often (one entry per limited key with traffic). */
const SWEEP_EVERY_MS = 60_000;

/** This process's part of one key's allowance in the current window. */
interface Held {
  readonly window: number;
  readonly windowMs: number;
  /** What is left of the slices taken; below 0 when usage counted after the answer overran them. */
  left: number;
  /** The window has nothing left to grant: refused without asking until the window ends. */
  exhausted: boolean;
  /** What the requests waiting for a slice need: the next slice asks for at least this. */
  waiting: number;
  /** The slice being taken, shared by every request of the key that finds this process short. */
  taking?: Promise<void>;
}

/**
 * Scale-out only (SCALE_OUT=on): request counts that hold across the gateway processes. Per limited
 * key and fixed window this process takes slices of the limit on `allowance-<key>-<window start>`
 * and counts against them in memory; the one awaited step is taking a slice, shared by the
 * concurrent requests of the key. A window all taken is refused in memory until it ends.
 */
@Injectable()
export class RateAllowances {
  private readonly logger = new Logger(RateAllowances.name);
  readonly active: boolean;
  private readonly held = new Map<string, Held>();
  private sweepAt = 0;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'scaleOut'>,
    private readonly streams: StreamCommands,
    private readonly appender: UsageAppender,
  ) {
    this.active = config.scaleOut;
  }

  /**
   * Takes `amount` of `key`'s allowance of `limit` per window, for a count known before the
   * request runs: true when taken, false when the window has not that much left.
   */
  take(
    key: string,
    limit: number,
    windowMs: number,
    amount = 1,
    now = Date.now(),
  ): boolean | Promise<boolean> {
    const held = this.current(key, windowMs, now);
    if (held.left >= amount) {
      held.left -= amount;
      return true;
    }
    if (held.exhausted) return false;
    return this.waitForSlice(key, held, limit, amount, amount);
  }

  /**
   * For a count known only after the answer (tokens, successes): true while this process holds
   * some of the window's allowance (taking a slice when it holds none); `use` counts it afterwards.
   */
  holds(
    key: string,
    limit: number,
    windowMs: number,
    now = Date.now(),
  ): boolean | Promise<boolean> {
    const held = this.current(key, windowMs, now);
    if (held.left > 0) return true;
    if (held.exhausted) return false;
    return this.waitForSlice(key, held, limit, MINIMUM_HELD, 0);
  }

  /**
   * Takes slices until `needed` is left, then deducts `taken`; false once the window is all taken
   * (or after MAX_REFILLS tries, when the store keeps failing or others keep winning the race).
   */
  private async waitForSlice(
    key: string,
    held: Held,
    limit: number,
    needed: number,
    taken: number,
  ): Promise<boolean> {
    held.waiting += needed;
    try {
      for (let attempt = 0; attempt < MAX_REFILLS; attempt++) {
        await this.refill(key, held, limit);
        if (held.left >= needed) {
          held.left -= taken;
          return true;
        }
        if (held.exhausted) return false;
      }
      return false;
    } finally {
      held.waiting -= needed;
    }
  }

  /** Counts `amount` used after the answer; past the slices held it is a debt the next slice pays. */
  use(key: string, windowMs: number, amount: number, now = Date.now()): void {
    if (amount > 0) this.current(key, windowMs, now).left -= amount;
  }

  private current(key: string, windowMs: number, now: number): Held {
    this.sweep(now);
    const window = windowStartOf(now, windowMs);
    let held = this.held.get(key);
    if (!held || held.window !== window || held.windowMs !== windowMs) {
      held = { window, windowMs, left: 0, exhausted: false, waiting: 0 };
      this.held.set(key, held);
    }
    return held;
  }

  /** Takes one more slice (plus any debt) of the window; marks it exhausted when none is left. */
  private refill(key: string, held: Held, limit: number): Promise<void> {
    held.taking ??= this.takeSlice(key, held, limit).finally(() => {
      held.taking = undefined;
    });
    return held.taking;
  }

  private async takeSlice(key: string, held: Held, limit: number): Promise<void> {
    const slice = Math.max(allowanceSlice(limit, PROCESSES_GUESS), held.waiting);
    const want = slice + Math.max(0, -held.left);
    try {
      const decided = await this.streams.execute(
        allowanceStream(key, held.window),
        allowanceDecider,
        { type: 'TakeAllowance', processId: this.appender.processId, want, limit },
        META,
      );
      const granted = decided.events.reduce((sum, event) => sum + event.data.amount, 0);
      held.left += granted;
      // Nothing granted, or the last of it: no other process can be granted more either.
      if (granted === 0 || allowanceExhausted(decided.state, limit)) held.exhausted = true;
    } catch (error) {
      // The waiting requests try again (a few times) and are refused after: the limit holds.
      this.logger.error(`allowance ${key}: ${(error as Error).message}`);
    }
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + SWEEP_EVERY_MS;
    for (const [key, held] of this.held)
      if (held.window + held.windowMs <= now && !held.taking) this.held.delete(key);
  }
}

const META: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'rate-allowance', lang: 'en' };
