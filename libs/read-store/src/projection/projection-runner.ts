import type {
  EventStore,
  Position,
  RecordedEvent,
  Subscription,
} from '@tollgate/event-store/event-store.port';
import { comparePositions } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { checkpointCollection, CHECKPOINTS, readCheckpoint, writeCheckpoint } from './checkpoint';
import type { Projection } from './projection';

export type AppliedListener = (projection: string, events: readonly RecordedEvent[]) => void;

export interface ProjectionRunnerOptions {
  /** Upper bound on events per transaction (default 500). */
  readonly maxBatchSize?: number;
  /** After each committed batch that had events for this projection. */
  readonly onApplied?: AppliedListener;
  /** Errors once caught up (the runner then resubscribes with backoff). Default: console.error. */
  readonly onError?: (projection: string, error: Error) => void;
  /** Write the checkpoint after this many events of other types even when nothing applied (default 1000). */
  readonly checkpointEvery?: number;
  /** First delay before resubscribing after an error; doubles up to 30 s (default 1000). */
  readonly retryDelayMs?: number;
}

const MAX_RETRY_MS = 30_000;

/**
 * Runs one projection: subscribes to all of `$all` (unfiltered, so its position passes every event and
 * `waitFor` works for any position) from its checkpoint, and applies each delivered batch in one
 * read-store transaction that also writes the checkpoint, so a crash never applies a batch twice.
 * A stored checkpoint with another version (or none) means: drop the collections and replay.
 */
export class ProjectionRunner {
  /** Resolves once everything in the log at start time is applied; rejects if that fails. */
  readonly caughtUp: Promise<void>;

  private readonly eventTypes: ReadonlySet<string>;
  private readonly maxBatchSize: number;
  private readonly checkpointEvery: number;
  private current: Position | null = null;
  private sinceCheckpoint = 0;
  private subscription: Subscription | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private readonly advanceListeners = new Set<() => void>();
  private isCaughtUp = false;
  private stopped = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private resolveCaughtUp!: () => void;
  private rejectCaughtUp!: (error: Error) => void;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    readonly projection: Projection,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.eventTypes = new Set(projection.eventTypes);
    this.maxBatchSize = options.maxBatchSize ?? 500;
    this.checkpointEvery = options.checkpointEvery ?? 1000;
    this.retryMs = options.retryDelayMs ?? 1000;
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.resolveCaughtUp = resolve;
      this.rejectCaughtUp = reject;
    });
    this.caughtUp.catch(() => undefined); // awaited by whoever cares; never an unhandled rejection
  }

  get name(): string {
    return this.projection.name;
  }

  /** Last `$all` position processed (applied or skipped); null before the first event. */
  position(): Position | null {
    return this.current;
  }

  hasReached(target: Position): boolean {
    return this.current !== null && comparePositions(this.current, target) >= 0;
  }

  /** Called after every advance of `position()`; returns the unsubscribe function. */
  onAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  /** Resolves after the checkpoint is loaded and the subscription opened; catch-up continues in the background. */
  async start(): Promise<void> {
    const { projection, readStore } = this;
    await readStore.declare([...projection.collections, checkpointCollection]);
    const checkpoint = await readCheckpoint(readStore, projection.name);
    if (checkpoint && checkpoint.version === projection.version) {
      this.current = checkpoint.position;
    } else {
      // New projection, new version or lost checkpoint: the read model is rebuilt from the log.
      await readStore.drop(projection.collections.map((c) => c.name));
      await readStore.collection(CHECKPOINTS).delete(projection.name);
    }
    const head = await this.eventStore.headPosition();
    if (head === null || this.hasReached(head)) this.markCaughtUp();
    else {
      const unsubscribe = this.onAdvance(() => {
        if (this.hasReached(head)) {
          unsubscribe();
          this.markCaughtUp();
        }
      });
    }
    this.subscribe();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (!this.isCaughtUp)
      this.rejectCaughtUp(new Error(`Projection ${this.name} stopped before catching up`));
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.inflight;
  }

  private subscribe(): void {
    if (this.stopped) return;
    this.subscription = this.eventStore.subscribeToAll(
      { fromPosition: this.current ?? 'start', maxBatchSize: this.maxBatchSize },
      {
        onEvents: (events) => this.handle(events),
        onCaughtUp: () => void this.inflight.then(() => this.markCaughtUp()),
        onError: (error) => this.fail(error),
      },
    );
  }

  private handle(events: readonly RecordedEvent[]): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const run = this.applyBatch(events);
    this.inflight = run.catch(() => undefined);
    return run;
  }

  private async applyBatch(delivered: readonly RecordedEvent[]): Promise<void> {
    // A resubscription may overlap what was already processed: skip it.
    const events = delivered.filter((e) => !this.hasReached(e.position));
    const last = events[events.length - 1];
    if (!last) return;
    const relevant = events.filter((e) => this.eventTypes.has(e.type));
    this.sinceCheckpoint += events.length;
    if (relevant.length > 0 || this.sinceCheckpoint >= this.checkpointEvery) {
      const { projection } = this;
      await this.readStore.transaction(async (session) => {
        // Another process sharing this read store may have applied part of the batch already; the
        // checkpoint read in the same transaction makes that safe (a write conflict retries the body).
        const stored = await readCheckpoint(session, projection.name);
        const done = stored?.version === projection.version ? stored.position : null;
        const fresh = done
          ? relevant.filter((e) => comparePositions(e.position, done) > 0)
          : relevant;
        for (const event of fresh) await projection.apply(event, session);
        if (!done || comparePositions(last.position, done) > 0) {
          await writeCheckpoint(session, projection.name, last.position, projection.version);
        }
      });
      this.sinceCheckpoint = 0;
    }
    // Batches without relevant events only move the in-memory position: a restart re-reads them, harmlessly.
    this.current = last.position;
    this.retryMs = this.options.retryDelayMs ?? 1000;
    for (const listener of [...this.advanceListeners]) listener();
    if (relevant.length > 0) this.notifyApplied(relevant);
  }

  private notifyApplied(events: readonly RecordedEvent[]): void {
    try {
      this.options.onApplied?.(this.name, events);
    } catch (error) {
      this.report(error as Error);
    }
  }

  private markCaughtUp(): void {
    if (this.isCaughtUp || this.stopped) return;
    this.isCaughtUp = true;
    this.resolveCaughtUp();
  }

  private fail(error: Error): void {
    this.subscription = undefined;
    if (this.stopped) return;
    if (!this.isCaughtUp) {
      // At start-up a failing projection is a bug to surface, not to retry forever in the background.
      this.stopped = true;
      this.rejectCaughtUp(
        new Error(`Projection ${this.name} failed: ${error.message}`, { cause: error }),
      );
      return;
    }
    this.report(error);
    this.retryTimer = setTimeout(() => this.subscribe(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private report(error: Error): void {
    if (this.options.onError) this.options.onError(this.name, error);
    else console.error(`Projection ${this.name}:`, error);
  }
}
