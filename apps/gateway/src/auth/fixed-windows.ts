/** At most `max` counts per key per `windowMs`; a max of 0 turns the limit off. */
export interface WindowLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** Past this many keys, expired windows are swept when a new one opens. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window counters per key in process memory, for the edge's limits (requests per IP on the
 * critical routes, failed password checks per account). A key's window opens at its first count
 * and lasts windowMs; expired windows are forgotten now and then, so the map stays bounded by the
 * keys active within one window.
 */
export class FixedWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: WindowLimit) {}

  /** Whether the key has used up its current window (never when the limit is off). */
  full(key: string, now: number): boolean {
    if (this.limit.max === 0) return false;
    const window = this.windows.get(key);
    return !!window && now - window.start < this.limit.windowMs && window.count >= this.limit.max;
  }

  /** Counts one for the key; answers whether that count is still within the limit. */
  hit(key: string, now: number): boolean {
    const { max, windowMs } = this.limit;
    if (max === 0) return true;
    const window = this.windows.get(key);
    if (window && now - window.start < windowMs) return ++window.count <= max;
    this.windows.set(key, { start: now, count: 1 });
    if (this.windows.size >= SWEEP_AT) this.sweep(now);
    return 1 <= max;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows)
      if (now - window.start >= this.limit.windowMs) this.windows.delete(key);
  }
}
