import type { Election } from './election';
import type { LeasePort } from './lease.port';

export interface LeaseElectionOptions {
  readonly ttlMs: number;
  readonly onError: (error: Error) => void;
  /** Injectable for tests; durations are measured on it, never compared across machines. */
  readonly now?: () => number;
}

/** A renewal that failed with an error is tried again this often (fraction of the ttl). */
const RETRY_FRACTION = 10;
/** Renewed every third of the ttl: two renewals may fail before the lease runs out. */
const RENEW_FRACTION = 3;

/**
 * An election on a lease (several machines on shared engines): acquire, renew every ttl/3, and
 * when a renewal is refused, or not confirmed before the last confirmation's ttl runs out, declare
 * the role lost (listeners stop the work) and go back to trying. A confirmation counts from when
 * its request was sent, on this process's clock: the engine's expiry is later than that, so this
 * side always gives up first whatever the clocks of the machines say.
 */
export class LeaseElection implements Election {
  private tenure: { token: number; confirmedUntil: number } | null = null;
  private readonly wonListeners = new Set<() => void>();
  private readonly lostListeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private expiry: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly now: () => number;

  constructor(
    private readonly lease: LeasePort,
    readonly role: string,
    readonly holder: string,
    private readonly options: LeaseElectionOptions,
  ) {
    // Monotonic: a wall clock set back must not stretch a confirmation.
    this.now = options.now ?? (() => performance.now());
  }

  get held(): boolean {
    return this.tenure !== null;
  }

  get token(): number | null {
    return this.tenure?.token ?? null;
  }

  confirmed(): boolean {
    return this.tenure !== null && this.now() < this.tenure.confirmedUntil;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.attempt();
  }

  /**
   * One attempt, for a command that must not wait (the offline rebuild): true when won (and
   * renewed from now on, until `release`), false when another process holds the role.
   */
  async tryOnce(): Promise<boolean> {
    this.stopped = false;
    await this.attempt();
    if (!this.held) {
      this.stopped = true;
      this.clearTimers();
    }
    return this.held;
  }

  onWon(listener: () => void): void {
    this.wonListeners.add(listener);
    if (this.held) this.notify(listener);
  }

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  async release(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    const tenure = this.tenure;
    this.tenure = null;
    if (!tenure) return;
    try {
      await this.lease.release(this.role, this.holder, tenure.token);
    } catch (error) {
      // Not freed: the others take over when it expires.
      this.options.onError(error as Error);
    }
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.tenure) return;
    const sentAt = this.now();
    let grant: { token: number } | null = null;
    try {
      grant = await this.lease.acquire(this.role, this.holder, this.options.ttlMs);
    } catch (error) {
      this.options.onError(error as Error);
    }
    if (this.stopped) {
      if (grant) await this.lease.release(this.role, this.holder, grant.token).catch(() => {});
      return;
    }
    if (!grant) {
      this.later(() => void this.attempt(), this.options.ttlMs / RENEW_FRACTION);
      return;
    }
    this.tenure = { token: grant.token, confirmedUntil: sentAt };
    this.confirm(sentAt);
    this.later(() => void this.renew(), this.options.ttlMs / RENEW_FRACTION);
    for (const listener of [...this.wonListeners]) this.notify(listener);
  }

  private async renew(): Promise<void> {
    const tenure = this.tenure;
    if (this.stopped || !tenure) return;
    const sentAt = this.now();
    let renewed: boolean;
    try {
      renewed = await this.lease.renew(this.role, this.holder, tenure.token, this.options.ttlMs);
    } catch (error) {
      this.options.onError(error as Error);
      // Not refused, only unanswered: try again until the expiry timer decides.
      if (this.tenure === tenure)
        this.later(() => void this.renew(), this.options.ttlMs / RETRY_FRACTION);
      return;
    }
    // Lost (late) or released while the renewal was on its way: nothing more to do here.
    if (this.tenure !== tenure) return;
    if (!renewed) return this.lose();
    this.confirm(sentAt);
    this.later(() => void this.renew(), this.options.ttlMs / RENEW_FRACTION);
  }

  private confirm(sentAt: number): void {
    if (!this.tenure) return;
    this.tenure.confirmedUntil = sentAt + this.options.ttlMs;
    clearTimeout(this.expiry);
    this.expiry = setTimeout(() => this.lose(), this.tenure.confirmedUntil - this.now());
    this.expiry.unref();
  }

  private lose(): void {
    if (!this.tenure) return;
    this.tenure = null;
    this.clearTimers();
    for (const listener of [...this.lostListeners]) this.notify(listener);
    if (!this.stopped) this.later(() => void this.attempt(), this.options.ttlMs / RENEW_FRACTION);
  }

  private later(run: () => void, ms: number): void {
    clearTimeout(this.timer);
    // Unref'd: an election must not keep a stopping process alive.
    this.timer = setTimeout(run, ms);
    this.timer.unref();
  }

  private clearTimers(): void {
    clearTimeout(this.timer);
    clearTimeout(this.expiry);
  }

  private notify(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.options.onError(error as Error);
    }
  }
}
