import {
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '@tollgate/event-store';
import {
  CHECKPOINTS,
  pacedEventTypes,
  type AppliedListener,
  type Projection,
  type ProjectionProgress,
  type ReadStore,
} from '@tollgate/read-store';
import type { HotCache } from './hot-caches/hot-cache';
import { readProjectorHead } from './projector-head';

/** How often the projector head is read while someone waits on it or a push is pending. */
const POLL_MS = 10;
/**
 * The same, when the projector tells its heads itself (over IPC): the read is only the fallback,
 * and at relay rates a push is always pending, so 10 ms would be a read-store query on the relay's
 * loop a hundred times a second for nothing.
 */
const TOLD_POLL_MS = 200;
const START_TIMEOUT_MS = 60_000;
/** Events held back for the pushes while the projector does not advance; the oldest go first. */
const MAX_QUEUED = 50_000;

export interface FollowerOptions {
  readonly log: (line: string) => void;
  readonly warn: (line: string) => void;
  readonly onError: (projection: string, error: Error) => void;
  /** How long `start` waits for the projector to reach the log head (default 60 s). */
  readonly startTimeoutMs?: number;
  /**
   * Heads told by the projecting process itself (the gateway's projector child, over IPC): taken
   * at once, the read store's head still read as a fallback.
   */
  readonly heads?: {
    onHead(listener: (position: Position) => void): () => void;
    /**
     * This process appended events the projections apply without pacing (a command's, not
     * receipts alone): the projector looks now.
     */
    nudge?(): void;
  };
}

/**
 * A scale-out process that does not write the read models: what the app uses of ProjectionHost,
 * answered from the projector head another process records in the read store. `onApplied` gets
 * the events from this process's cache feed, held back until the projector head has passed them,
 * so a console refetching after the push sees the change, as on the projector.
 */
export class FollowerProjections {
  /** For the metrics: every projection stands where the projector head does. */
  readonly runner = {
    progress: (): ProjectionProgress[] =>
      this.projections.map(({ name }) => ({ name, position: this.head, appliedAt: null })),
  };

  private head: Position | null = null;
  /** Set by `start`: events up to here are in the read models the app loaded at start-up. */
  private baseline: Position | null | undefined;
  private readonly queue: RecordedEvent[] = [];
  private readonly members: ReadonlyArray<{ name: string; types: ReadonlySet<string> }>;
  private readonly pacedTypes: ReadonlySet<string>;
  private readonly advanceListeners = new Set<() => void>();
  private readonly appliedListeners = new Set<AppliedListener>();
  private readonly waiters = new Set<() => void>();
  private polling = false;
  private stopped = false;
  private dropping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    feed: { register(cache: HotCache): void },
    private readonly projections: readonly Projection[],
    private readonly options: FollowerOptions,
  ) {
    this.members = projections.map(({ name, eventTypes }) => ({
      name,
      types: new Set(eventTypes),
    }));
    this.pacedTypes = pacedEventTypes(projections);
    options.heads?.onHead((position) => this.advanceTo(position));
    feed.register({
      name: 'follower pushes',
      eventTypes: [...new Set(projections.flatMap((p) => p.eventTypes))],
      apply: (events) => this.enqueue(events),
    });
  }

  /** Resolves once the projector head has reached the log head of now (bounded). */
  async start(): Promise<void> {
    // The query handlers read these collections; declaring is idempotent beside the projector,
    // which alone reconciles the indexes (a follower of another version must not drop them).
    await this.readStore.declare(
      [...this.projections.flatMap((p) => p.collections), { name: CHECKPOINTS }],
      { reconcileIndexes: false },
    );
    const target = await this.eventStore.headPosition();
    await this.refresh();
    if (target && !this.hasReached(target)) {
      const timeoutMs = this.options.startTimeoutMs ?? START_TIMEOUT_MS;
      this.options.log(
        `Waiting up to ${timeoutMs} ms for the projecting process to reach the log head ${String(target.commit)} (docs/scale-out.md)`,
      );
      const reached = await this.waitFor(target, timeoutMs);
      if (!reached && !this.stopped)
        this.options.warn(
          `No projecting process reached the log head ${String(target.commit)} within ${timeoutMs} ms: serving the read models as they are; /readyz stays 503 until it does`,
        );
    }
    this.baseline = this.head;
  }

  position(): Position | null {
    return this.head;
  }

  hasReached(position: Position): boolean {
    return this.head !== null && comparePositions(this.head, position) >= 0;
  }

  onAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** True once the projector head has passed `position`; false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs = 5000): Promise<boolean> {
    if (this.hasReached(position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(result);
      };
      const check = () => this.hasReached(position) && finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiters.add(check);
      this.poll();
    });
  }

  /**
   * No more pushes (this process projects from now on, or stops): what the head already covers is
   * delivered first. Waits in progress still end on the head or their timeout.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    // Best effort: a head that cannot be read now leaves those pushes to the new projector's replay.
    if (this.queue.length > 0) await this.refresh().catch(() => undefined);
    this.stopped = true;
    this.queue.length = 0;
  }

  private enqueue(events: readonly RecordedEvent[]): void {
    if (events.some((event) => !this.pacedTypes.has(event.type))) this.options.heads?.nudge?.();
    const baseline = this.baseline;
    if (baseline === undefined || this.stopped) return;
    for (const event of events)
      if (baseline === null || comparePositions(event.position, baseline) > 0)
        this.queue.push(event);
    if (this.queue.length > MAX_QUEUED) {
      this.queue.splice(0, this.queue.length - MAX_QUEUED);
      if (!this.dropping)
        this.options.warn(
          `The projector head has not advanced for ${MAX_QUEUED} events: the oldest live updates are dropped`,
        );
      this.dropping = true;
    }
    this.deliver();
    this.poll();
  }

  /** Calls the listeners with the queued events the projector head has passed, in log order. */
  private deliver(): void {
    let ready = 0;
    while (ready < this.queue.length && this.hasReached(this.queue[ready]!.position)) ready += 1;
    if (ready === 0) return;
    this.dropping = false;
    const events = this.queue.splice(0, ready);
    for (const { name, types } of this.members) {
      const mine = events.filter((event) => types.has(event.type));
      if (mine.length === 0) continue;
      for (const listener of [...this.appliedListeners]) {
        try {
          listener(name, mine);
        } catch (error) {
          this.options.onError(name, error as Error);
        }
      }
    }
  }

  private async refresh(): Promise<void> {
    this.advanceTo(await readProjectorHead(this.readStore));
  }

  /** The newest reading, from either source: a projector rebuilding from scratch goes back. */
  private advanceTo(head: Position | null): void {
    if (!head || (this.head && comparePositions(head, this.head) === 0)) return;
    this.head = head;
    for (const listener of [...this.advanceListeners]) listener();
    for (const waiter of [...this.waiters]) waiter();
    if (!this.stopped) this.deliver();
  }

  /** Polls only while someone waits or a push is pending: an idle follower reads nothing. */
  private poll(): void {
    const wanted = this.waiters.size > 0 || (!this.stopped && this.queue.length > 0);
    if (this.polling || !wanted) return;
    this.polling = true;
    setTimeout(
      () => {
        this.refresh()
          .catch((error: Error) => {
            if (!this.stopped) this.options.onError('$head', error);
          })
          .finally(() => {
            this.polling = false;
            this.poll();
          });
      },
      this.options.heads ? TOLD_POLL_MS : POLL_MS,
    ).unref();
  }
}
