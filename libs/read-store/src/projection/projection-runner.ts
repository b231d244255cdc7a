import type {
  EventStore,
  Position,
  RecordedEvent,
  Subscription,
} from '@tollgate/event-store/event-store.port';
import { comparePositions } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { applyEvents, ProjectionFailure } from './apply-events';
import { checkpointCollection, CHECKPOINTS, readCheckpoint, writeCheckpoint } from './checkpoint';
import { pacedEventTypes, type Projection } from './projection';
import { clearInBatch, markInBatch } from './standalone-guard';
import { isTransientStoreError } from './store-errors';

export type AppliedListener = (projection: string, events: readonly RecordedEvent[]) => void;

export interface ProjectionRunnerOptions {
  /** Upper bound on events per transaction (default 500). */
  readonly maxBatchSize?: number;
  /** After each committed batch, per projection that had events in it. */
  readonly onApplied?: AppliedListener;
  /** Errors once caught up (the runner then resubscribes with backoff). Default: console.error. */
  readonly onError?: (projection: string, error: Error) => void;
  /** Write a projection's checkpoint after this many events of other types even when nothing applied (default 1000). */
  readonly checkpointEvery?: number;
  /**
   * First delay before resubscribing after an error; doubles up to 30 s (default 1000). Transient
   * read-store errors (MongoDB's labelled ones, no server selectable) are retried this way while
   * catching up at start-up too; any other error there rejects `caughtUp`.
   */
  readonly retryDelayMs?: number;
  /**
   * Once caught up, after a batch with frequent events, the next waits this many ms (default 0:
   * each delivery at once); what arrives during the pause is applied as one batch after it. Under
   * relay load this turns one read-store transaction per request into one per interval, off the
   * requests' way, for at most this much more lag. Only the frequent events wait (the types
   * projections take through `batched`, the usage receipts): any other event arriving ends the
   * pause, and so does someone waiting for a position (`hurry`), so an admin's change or
   * read-your-writes never waits for it.
   */
  readonly livePacingMs?: number;
}

const MAX_RETRY_MS = 30_000;
/** Who reports errors that belong to no single projection (the subscription's own). */
const SUBSCRIPTION = 'projections';

interface Member {
  readonly projection: Projection;
  readonly types: ReadonlySet<string>;
  /** Everything up to here is in its read model (its checkpoint, then what this runner applied). */
  position: Position | null;
  /** When the event at `position` was recorded; null until this runner processes one. */
  appliedAt: Date | null;
  sinceCheckpoint: number;
}

/** Where one projection stands (metrics: its position and lag). */
export interface ProjectionProgress {
  readonly name: string;
  readonly position: Position | null;
  readonly appliedAt: Date | null;
}

/**
 * Runs a process's projections over ONE subscription to all of `$all` (unfiltered, so its position
 * passes every event and `waitFor` works for any position), from the oldest of their checkpoints.
 * Each delivered batch is applied in one read-store transaction that also writes the checkpoints of
 * the projections it touched, so a crash never applies a batch twice; a projection whose checkpoint
 * is ahead (the others were reset) skips what it already has. A stored checkpoint with another
 * version (or none) means: drop that projection's collections and replay it.
 *
 * A projection that throws rolls its whole batch back, for every projection: they all wait (no read
 * model runs ahead of the others on the shared position) while the runner reports the failing one by
 * name and retries with backoff; while catching up at start-up it rejects `caughtUp` instead, unless
 * the error is the read store's transient kind (a failover outlasting the driver's own retries),
 * which is retried with backoff there too.
 *
 * On a store without atomic transactions each batch is marked in the checkpoints of the projections
 * it writes before it starts (standalone-guard.ts); a projection still marked at start-up or after a
 * failed batch is rebuilt from the log, so a batch that landed in part is never replayed on top.
 */
export class ProjectionRunner {
  /** Resolves once everything in the log at start time is applied; rejects if that fails. */
  readonly caughtUp: Promise<void>;

  private readonly members: Member[];
  /** The types a live-pacing pause may hold back: what projections take in `batched` (receipts). */
  private readonly pacedTypes: ReadonlySet<string>;
  private readonly maxBatchSize: number;
  private readonly checkpointEvery: number;
  private current: Position | null = null;
  private processedCount = 0;
  private subscription: Subscription | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private readonly advanceListeners = new Set<() => void>();
  private isCaughtUp = false;
  private stopped = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private paused: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  private resolveCaughtUp!: () => void;
  private rejectCaughtUp!: (error: Error) => void;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.members = projections.map((projection) => ({
      projection,
      types: new Set(projection.eventTypes),
      position: null,
      appliedAt: null,
      sinceCheckpoint: 0,
    }));
    this.pacedTypes = pacedEventTypes(projections);
    this.maxBatchSize = options.maxBatchSize ?? 500;
    this.checkpointEvery = options.checkpointEvery ?? 1000;
    this.retryMs = options.retryDelayMs ?? 1000;
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.resolveCaughtUp = resolve;
      this.rejectCaughtUp = reject;
    });
    this.caughtUp.catch(() => undefined); // awaited by whoever cares; never an unhandled rejection
  }

  /** Last `$all` position every projection has processed (applied or skipped); null before the first event. */
  position(): Position | null {
    return this.current;
  }

  /** Each projection's last processed position and that event's time (read-only copy). */
  progress(): ProjectionProgress[] {
    return this.members.map(({ projection, position, appliedAt }) => ({
      name: projection.name,
      position,
      appliedAt,
    }));
  }

  /** Events of `$all` this runner has processed (applied or skipped) since it started. */
  processed(): number {
    return this.processedCount;
  }

  hasReached(target: Position): boolean {
    return this.current !== null && comparePositions(this.current, target) >= 0;
  }

  /** Called after every advance of `position()`; returns the unsubscribe function. */
  onAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  /** Resolves after the checkpoints are loaded and the subscription opened; catch-up continues in the background. */
  async start(): Promise<void> {
    const { readStore } = this;
    // The checkpoints first: a read model to rebuild is dropped before its collections are
    // declared, which would otherwise bring its old table to the new layout only to drop it.
    await readStore.declare([checkpointCollection]);
    await this.loadCheckpoints();
    await readStore.declare(this.members.flatMap((m) => m.projection.collections));
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
    this.hurry();
    if (!this.isCaughtUp) this.rejectCaughtUp(new Error('Projections stopped before catching up'));
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.inflight;
  }

  /** Positions from the stored checkpoints; a projection that cannot resume is reset for a replay. */
  private async loadCheckpoints(): Promise<void> {
    const { readStore } = this;
    for (const member of this.members) {
      const { projection } = member;
      const checkpoint = await readCheckpoint(readStore, projection.name);
      if (checkpoint && checkpoint.version === projection.version && !checkpoint.dirty) {
        // After a failed batch the position in memory may be ahead (events it had no use for).
        member.position ??= checkpoint.position;
      } else {
        // New projection, new version, lost checkpoint or a batch that may have landed in part:
        // the read model is rebuilt from the log.
        await readStore.drop(projection.collections.map((c) => c.name));
        await readStore.collection(CHECKPOINTS).delete(projection.name);
        member.position = null;
        member.appliedAt = null;
      }
    }
    this.current = this.oldestMemberPosition();
  }

  private oldestMemberPosition(): Position | null {
    let oldest: Position | null = null;
    for (const { position } of this.members) {
      if (position === null) return null;
      if (oldest === null || comparePositions(position, oldest) < 0) oldest = position;
    }
    return oldest;
  }

  private subscribe(): void {
    if (this.stopped) return;
    this.subscription = this.eventStore.subscribeToAll(
      { fromPosition: this.current ?? 'start', maxBatchSize: this.maxBatchSize },
      {
        onEvents: (events) => this.handle(events),
        onQueued: (event) => {
          if (this.paused && !this.pacedTypes.has(event.type)) this.hurry();
        },
        onCaughtUp: () => void this.inflight.then(() => this.markCaughtUp()),
        onError: (error) => this.fail(error),
      },
    );
  }

  private handle(events: readonly RecordedEvent[]): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // Only a batch with frequent events starts a pause: an admin's change alone never does.
    const paced = this.isCaughtUp && events.some((e) => this.pacedTypes.has(e.type));
    const pacing = paced ? (this.options.livePacingMs ?? 0) : 0;
    const run = this.applyBatch(events);
    this.inflight = run.catch(() => undefined);
    // The subscription delivers its next batch when this resolves: the pause collects it.
    return pacing > 0 ? run.then(() => this.pause(pacing)) : run;
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.hurry(), ms);
      this.paused = { timer, resolve };
    });
  }

  /** Ends a live-pacing pause now: what queued during it is applied without waiting out the interval. */
  hurry(): void {
    const paused = this.paused;
    this.paused = undefined;
    if (!paused) return;
    clearTimeout(paused.timer);
    paused.resolve();
  }

  private async applyBatch(delivered: readonly RecordedEvent[]): Promise<void> {
    // A resubscription may overlap what was already processed: skip it.
    const events = delivered.filter((e) => !this.hasReached(e.position));
    const last = events[events.length - 1];
    if (!last) return;
    const work: Array<{ member: Member; relevant: RecordedEvent[] }> = [];
    for (const member of this.members) {
      const { position, types } = member;
      const relevant = events.filter(
        (e) =>
          types.has(e.type) && (position === null || comparePositions(e.position, position) > 0),
      );
      member.sinceCheckpoint += events.length;
      if (relevant.length > 0 || member.sinceCheckpoint >= this.checkpointEvery)
        work.push({ member, relevant });
    }
    if (work.length > 0) {
      const { atomicTransactions } = this.readStore;
      const writing = work
        .filter((w) => w.relevant.length > 0)
        .map((w) => w.member.projection.name);
      if (!atomicTransactions) await markInBatch(this.readStore, writing, last.position);
      await this.readStore.transaction(async (session) => {
        for (const { member, relevant } of work) {
          const { projection } = member;
          // Another process sharing this read store may have applied part of the batch already; the
          // checkpoint read in the same transaction makes that safe (a write conflict retries the body).
          const stored = await readCheckpoint(session, projection.name);
          const done = stored?.version === projection.version ? stored.position : null;
          const fresh = done
            ? relevant.filter((e) => comparePositions(e.position, done) > 0)
            : relevant;
          await applyEvents(projection, fresh, session, this.readStore);
          if (!done || comparePositions(last.position, done) > 0) {
            await writeCheckpoint(session, projection.name, last.position, projection.version);
          } else if (!atomicTransactions && writing.includes(projection.name)) {
            await clearInBatch(session, projection.name);
          }
        }
      });
      for (const { member } of work) member.sinceCheckpoint = 0;
    }
    // Projections without relevant events only move in memory: a restart re-reads them, harmlessly.
    for (const member of this.members) {
      if (member.position === null || comparePositions(last.position, member.position) > 0) {
        member.position = last.position;
        member.appliedAt = last.recordedAt;
      }
    }
    this.current = last.position;
    this.processedCount += events.length;
    this.retryMs = this.options.retryDelayMs ?? 1000;
    for (const listener of [...this.advanceListeners]) listener();
    for (const { member, relevant } of work)
      if (relevant.length > 0) this.notifyApplied(member.projection.name, relevant);
  }

  private notifyApplied(name: string, events: readonly RecordedEvent[]): void {
    try {
      this.options.onApplied?.(name, events);
    } catch (error) {
      this.report(name, error as Error);
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
    if (!this.isCaughtUp && !isTransientStoreError(error)) {
      // At start-up a failing projection is a bug to surface, not to retry forever in the background.
      this.stopped = true;
      this.rejectCaughtUp(
        error instanceof ProjectionFailure
          ? error
          : new Error(`Projections failed: ${error.message}`, { cause: error }),
      );
      return;
    }
    if (error instanceof ProjectionFailure) this.report(error.projection, error.cause);
    else this.report(SUBSCRIPTION, error);
    this.retryTimer = setTimeout(() => {
      this.inflight = this.resume();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  /**
   * Resubscribes after a failed batch. Without atomic transactions the batch may have landed in
   * part: the projections it marked are reset first, and the subscription restarts from the oldest
   * position (the others skip what they already have).
   */
  private async resume(): Promise<void> {
    if (this.stopped) return;
    if (!this.readStore.atomicTransactions) {
      try {
        await this.loadCheckpoints();
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      if (this.stopped) return;
    }
    this.subscribe();
  }

  private report(name: string, error: Error): void {
    if (this.options.onError) this.options.onError(name, error);
    else console.error(`Projection ${name}:`, error);
  }
}
