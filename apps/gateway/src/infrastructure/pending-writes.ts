import { Injectable, Logger } from '@nestjs/common';

/**
 * How long a shutdown waits for calls still under way. By then the listener is closed (cut at the
 * grace deadline) and the relay's upstream pools are destroyed (RelayModule shuts down before this
 * global module), so a call still reading a stalled upstream ends at once and settles: seconds are
 * plenty, and a call that hangs anyway cannot hold the process.
 */
export const CALLS_SETTLE_MS = 5_000;

/**
 * Writes not yet durable: the last batch of the writers that batch their appends (the usage
 * appender), and the calls under way whose receipt is still to come (relay calls, which settle
 * after their client is gone — a stream cut at the grace deadline is billed for what it
 * delivered). A shutdown lets both land before the stores close, so nothing answered is unbilled.
 */
@Injectable()
export class PendingWrites {
  private readonly logger = new Logger('Shutdown');
  private readonly writers = new Set<() => Promise<void>>();
  private readonly calls = new Set<Promise<unknown>>();

  register(drain: () => Promise<void>): void {
    this.writers.add(drain);
  }

  /** A call under way that ends by queueing its receipt (a relay call): a shutdown waits for it. */
  track(call: Promise<unknown>): void {
    this.calls.add(call);
    const done = () => this.calls.delete(call);
    call.then(done, done);
  }

  /**
   * Resolves once the calls under way settled (or CALLS_SETTLE_MS passed) and every writer's
   * queued appends were attempted (failures are theirs to log).
   */
  async drain(): Promise<void> {
    await this.callsSettled();
    await Promise.all([...this.writers].map((drain) => drain().catch(() => undefined)));
  }

  private async callsSettled(): Promise<void> {
    if (this.calls.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<true>((resolve) => {
      timer = setTimeout(() => resolve(true), CALLS_SETTLE_MS);
    });
    const timedOut = await Promise.race([Promise.allSettled([...this.calls]), late]);
    clearTimeout(timer);
    if (timedOut === true) {
      this.logger.warn(
        `${this.calls.size} call(s) still under way after ${CALLS_SETTLE_MS} ms: closing the stores without their receipts`,
      );
    }
  }
}
