/**
 * In-memory request limits checked before a request is relayed (no storage on the hot path):
 * per token rpm, tpm and concurrency (what one-api and new-api lack: one-api #1387, new-api #4882,
 * #5252), and one-api's and new-api's per-user ModelRequestRateLimit* options. Windows are sliding
 * over one-second buckets: O(buckets) memory per key whatever the rate.
 */

/** A sum over the last `windowMs`, in `buckets` slices. */
export class BucketWindow {
  private readonly counts: Float64Array;
  private readonly stamps: Float64Array;
  private readonly sliceMs: number;

  constructor(
    private readonly windowMs: number,
    buckets = 60,
  ) {
    this.counts = new Float64Array(buckets);
    this.stamps = new Float64Array(buckets).fill(-1);
    this.sliceMs = windowMs / buckets;
  }

  private slot(now: number): number {
    const index = Math.floor(now / this.sliceMs);
    const slot = index % this.counts.length;
    if (this.stamps[slot] !== index) {
      this.stamps[slot] = index;
      this.counts[slot] = 0;
    }
    return slot;
  }

  add(amount: number, now: number): void {
    if (amount <= 0) return;
    const slot = this.slot(now);
    this.counts[slot] = (this.counts[slot] ?? 0) + amount;
  }

  sum(now: number): number {
    const current = Math.floor(now / this.sliceMs);
    let total = 0;
    for (let i = 0; i < this.counts.length; i++) {
      const stamp = this.stamps[i] ?? -1;
      if (stamp > current - this.counts.length && stamp <= current) total += this.counts[i] ?? 0;
    }
    return total;
  }

  /** ms until the sum drops below `limit` (0 when it already is). */
  waitMs(limit: number, now: number): number {
    const current = Math.floor(now / this.sliceMs);
    const live: Array<{ index: number; count: number }> = [];
    for (let i = 0; i < this.counts.length; i++) {
      const stamp = this.stamps[i] ?? -1;
      if (stamp > current - this.counts.length && stamp <= current) {
        live.push({ index: stamp, count: this.counts[i] ?? 0 });
      }
    }
    live.sort((a, b) => a.index - b.index);
    let total = live.reduce((s, b) => s + b.count, 0);
    for (const bucket of live) {
      if (total < limit) break;
      total -= bucket.count;
      const expires = (bucket.index + this.counts.length) * this.sliceMs;
      if (total < limit) return Math.max(0, expires - now);
    }
    return total < limit ? 0 : this.windowMs;
  }

  idle(now: number): boolean {
    return this.sum(now) === 0;
  }
}

export interface TokenLimits {
  /** 0 = none. */
  readonly rpm: number;
  readonly tpm: number;
  readonly concurrency: number;
}

export type LimitVerdict =
  | { readonly ok: true; readonly release: () => void }
  | {
      readonly ok: false;
      readonly limit: 'rpm' | 'tpm' | 'concurrency' | 'user_requests' | 'user_successes';
      /** Seconds for Retry-After (at least 1). */
      readonly retryAfter: number;
      readonly max: number;
    };

/** The verdict when nothing is held (no limit applies): shared, not allocated per request. */
export const ADMITTED: LimitVerdict = Object.freeze({ ok: true, release: (): void => undefined });

interface TokenState {
  readonly requests: BucketWindow;
  readonly tokens: BucketWindow;
  inFlight: number;
}

const MINUTE = 60_000;
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** Per-token rpm / tpm / concurrency. `admit` before relaying, `release` when it ends. */
export class TokenLimiter {
  private readonly states = new Map<number, TokenState>();
  private sweepAt = 0;

  constructor(private readonly now: () => number) {}

  private state(tokenId: number): TokenState {
    let s = this.states.get(tokenId);
    if (!s) {
      s = { requests: new BucketWindow(MINUTE), tokens: new BucketWindow(MINUTE), inFlight: 0 };
      this.states.set(tokenId, s);
    }
    return s;
  }

  admit(tokenId: number, limits: TokenLimits): LimitVerdict {
    const none = limits.rpm <= 0 && limits.tpm <= 0 && limits.concurrency <= 0;
    if (none) return ADMITTED;
    const now = this.now();
    this.sweep(now);
    const s = this.state(tokenId);
    if (limits.concurrency > 0 && s.inFlight >= limits.concurrency) {
      return { ok: false, limit: 'concurrency', retryAfter: 1, max: limits.concurrency };
    }
    if (limits.rpm > 0 && s.requests.sum(now) >= limits.rpm) {
      return {
        ok: false,
        limit: 'rpm',
        retryAfter: seconds(s.requests.waitMs(limits.rpm, now)),
        max: limits.rpm,
      };
    }
    if (limits.tpm > 0 && s.tokens.sum(now) >= limits.tpm) {
      return {
        ok: false,
        limit: 'tpm',
        retryAfter: seconds(s.tokens.waitMs(limits.tpm, now)),
        max: limits.tpm,
      };
    }
    s.requests.add(1, now);
    s.inFlight += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        s.inFlight -= 1;
      },
    };
  }

  /** Tokens a finished request used (counted against tpm). */
  consumed(tokenId: number, tokens: number): void {
    if (tokens > 0) this.states.get(tokenId)?.tokens.add(tokens, this.now());
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + MINUTE;
    for (const [id, s] of this.states) {
      if (s.inFlight === 0 && s.requests.idle(now) && s.tokens.idle(now)) this.states.delete(id);
    }
  }
}

/** One-api's and new-api's ModelRequestRateLimit* options. */
export interface UserRequestLimits {
  readonly enabled: boolean;
  readonly durationMinutes: number;
  /** All requests, failed ones included; 0 = none. */
  readonly totalCount: number;
  /** Successful requests; 0 = none. */
  readonly successCount: number;
}

interface UserState {
  readonly all: BucketWindow;
  readonly successes: BucketWindow;
  readonly windowMs: number;
}

/** Per-user request counts over `durationMinutes` (new-api's ModelRequestRateLimit). */
export class UserRequestLimiter {
  private readonly states = new Map<number, UserState>();
  private sweepAt = 0;

  constructor(private readonly now: () => number) {}

  private state(userId: number, windowMs: number): UserState {
    let s = this.states.get(userId);
    if (!s || s.windowMs !== windowMs) {
      s = { all: new BucketWindow(windowMs), successes: new BucketWindow(windowMs), windowMs };
      this.states.set(userId, s);
    }
    return s;
  }

  admit(userId: number, limits: UserRequestLimits): LimitVerdict {
    if (!limits.enabled || limits.durationMinutes <= 0) return ADMITTED;
    if (limits.totalCount <= 0 && limits.successCount <= 0) return ADMITTED;
    const now = this.now();
    this.sweep(now);
    const s = this.state(userId, limits.durationMinutes * MINUTE);
    if (limits.totalCount > 0 && s.all.sum(now) >= limits.totalCount) {
      return {
        ok: false,
        limit: 'user_requests',
        retryAfter: seconds(s.all.waitMs(limits.totalCount, now)),
        max: limits.totalCount,
      };
    }
    if (limits.successCount > 0 && s.successes.sum(now) >= limits.successCount) {
      return {
        ok: false,
        limit: 'user_successes',
        retryAfter: seconds(s.successes.waitMs(limits.successCount, now)),
        max: limits.successCount,
      };
    }
    s.all.add(1, now);
    return ADMITTED;
  }

  succeeded(userId: number): void {
    this.states.get(userId)?.successes.add(1, this.now());
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + MINUTE;
    for (const [id, s] of this.states) {
      if (s.all.idle(now) && s.successes.idle(now)) this.states.delete(id);
    }
  }
}
