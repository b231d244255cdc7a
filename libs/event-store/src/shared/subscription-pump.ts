import type { RecordedEvent, SubscriptionHandlers } from '../event-store.port';
import { toError } from './to-error';

export const DEFAULT_MAX_BATCH_SIZE = 500;

export interface PumpHooks {
  /** Called synchronously whenever fewer than maxBatchSize events are queued; may push more. */
  readonly onLow?: () => void;
  /** Called once when delivery ends, by stop() or by a failure (to release the source). */
  readonly onHalt?: () => void;
}

/**
 * Delivers queued events to a subscription's handlers, one batch at a time: the next batch goes out
 * only after the handler's promise resolves, and whatever queued up meanwhile forms that batch
 * (capped by maxBatchSize). Shared by both adapters; they differ only in how the queue is fed.
 */
export class SubscriptionPump {
  private queue: RecordedEvent[] = [];
  /** Events still to deliver before onCaughtUp fires; undefined until the source says so. */
  private caughtUpAfter: number | undefined;
  private caughtUpSignalled = false;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly handlers: SubscriptionHandlers,
    readonly maxBatchSize: number,
    private readonly hooks: PumpHooks = {},
  ) {
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new Error(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    }
  }

  get queued(): number {
    return this.queue.length;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the delivery loop on a later tick, so no handler runs inside subscribeToAll(). */
  start(): void {
    setImmediate(() => void this.run());
  }

  push(event: RecordedEvent): void {
    if (this.stopped) return;
    this.queue.push(event);
    this.handlers.onQueued?.(event);
    this.kick();
  }

  /** Everything pushed so far predates the catch-up point; onCaughtUp fires once it is delivered. */
  markCaughtUp(): void {
    if (this.stopped || this.caughtUpSignalled || this.caughtUpAfter !== undefined) return;
    this.caughtUpAfter = this.queue.length;
    this.kick();
  }

  /** Stops delivery and reports the error (once). */
  fail(error: Error): void {
    if (this.stopped) return;
    this.halt();
    if (this.handlers.onError) {
      try {
        this.handlers.onError(error);
      } catch {
        // An error handler that throws has nowhere left to report to.
      }
    } else {
      // Without onError the failure would vanish; a stopped projection must be visible.
      console.error('Event store subscription stopped:', error);
    }
  }

  stop(): void {
    this.halt();
  }

  private halt(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.queue = [];
    this.kick();
    this.hooks.onHalt?.();
  }

  private kick(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        if (this.queue.length < this.maxBatchSize) this.hooks.onLow?.();
        if (this.stopped) return;
        if (this.caughtUpAfter === 0) {
          this.caughtUpAfter = undefined;
          this.caughtUpSignalled = true;
          this.handlers.onCaughtUp?.();
          continue;
        }
        if (this.queue.length === 0) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        // Cut the batch at the catch-up point so onCaughtUp lands between catch-up and live batches.
        let size = Math.min(this.queue.length, this.maxBatchSize);
        if (this.caughtUpAfter !== undefined) {
          size = Math.min(size, this.caughtUpAfter);
          this.caughtUpAfter -= size;
        }
        const batch = this.queue.splice(0, size);
        await this.handlers.onEvents(batch);
      }
    } catch (error) {
      this.fail(toError(error));
    }
  }
}
