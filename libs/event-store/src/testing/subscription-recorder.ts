import type { RecordedEvent, SubscriptionHandlers } from '../event-store.port';

/** Test helper: records what a subscription delivers and lets a test wait for a condition. */
export class SubscriptionRecorder {
  readonly batches: RecordedEvent[][] = [];
  readonly errors: Error[] = [];
  /** Sizes of the batches as delivered, before `accept` narrows them. */
  readonly rawBatchSizes: number[] = [];
  caughtUpCalls = 0;
  /** How many events had been delivered when onCaughtUp ran. */
  deliveredAtCaughtUp: number | undefined;

  constructor(
    /** Only events this accepts are recorded (a shared server holds other tests' events). */
    private readonly accept: (event: RecordedEvent) => boolean = () => true,
    /** Runs inside onEvents, before the batch is recorded; may await or throw. */
    private readonly onBatch?: (
      batch: readonly RecordedEvent[],
      recorder: SubscriptionRecorder,
    ) => Promise<void> | void,
  ) {}

  get events(): RecordedEvent[] {
    return this.batches.flat();
  }

  get ids(): string[] {
    return this.events.map((e) => e.id);
  }

  readonly handlers: SubscriptionHandlers = {
    onEvents: async (batch) => {
      this.rawBatchSizes.push(batch.length);
      await this.onBatch?.(batch, this);
      const accepted = batch.filter(this.accept);
      if (accepted.length > 0) this.batches.push(accepted);
    },
    onCaughtUp: () => {
      this.caughtUpCalls += 1;
      this.deliveredAtCaughtUp ??= this.events.length;
    },
    onError: (error) => {
      this.errors.push(error);
    },
  };

  async waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out waiting for ${what}: ${this.events.length} events in ${this.batches.length} batches, ` +
            `caughtUp x${this.caughtUpCalls}, errors: ${this.errors.map((e) => e.message).join('; ') || 'none'}`,
        );
      }
      await sleep(5);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
