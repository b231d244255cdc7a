import Database from 'better-sqlite3';
import {
  type AppendOptions,
  type AppendResult,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type ListStreamsOptions,
  type Position,
  type ReadAllOptions,
  type ReadAllPagesOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionHandlers,
} from '../event-store.port';
import { appendJson } from '../shared/event-json';
import { DEFAULT_MAX_BATCH_SIZE } from '../shared/subscription-pump';
import { toError } from '../shared/to-error';
import { validateAppend } from '../shared/validate-append';
import {
  appendResultOf,
  lastPosition,
  rebuildError,
  toRecordedEvents,
} from './sqlite-append-outcome';
import { MAX_POSITION, SqliteEventReads } from './sqlite-event-reads';
import { readAllPages, readsAhead } from './sqlite-read-ahead';
import { NO_LIMIT } from './sqlite-rows';
import type { SqliteEventStoreOptions, SqliteEventStoreStats } from './sqlite-event-store-options';
import { prepareDatabase, type SqliteSynchronous } from './sqlite-schema';
import { CommitSignalWatch, commitSignalPath } from './sqlite-commit-signal';
import { SqliteSubscription } from './sqlite-subscription';
import {
  InThreadWriter,
  WorkerWriter,
  type BatchWriter,
  type SerializedEvent,
  type WriteAppend,
  type WriteCommitted,
  type WriteReply,
} from './sqlite-writer';

export type { SqliteEventStoreOptions, SqliteEventStoreStats } from './sqlite-event-store-options';

interface InFlight {
  readonly batch: PendingAppend[];
  readonly deletes: PendingDelete[];
  /**
   * The head this process knew of when the batch was sent (what it had delivered or been told of
   * its own commits), raised to what earlier batches reported when they settle: subscriptions read
   * no further until it is reported. Not the log's head read from the file: that read opens a read
   * transaction, which after each of the writer's commits re-reads the B-tree's pages (~70–160 µs
   * on the relay's loop for every flush). A lower bound loses nothing: a commit reported later
   * first delivers what other processes appended since then.
   */
  headBefore: bigint;
  readonly recordedAt: number;
}

interface PendingAppend extends WriteAppend {
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: Error) => void;
}

interface PendingDelete {
  readonly streamId: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

const DEFAULT_FOREIGN_WATCH_MS = 20;
const FOREIGN_PAGE = 1000;

/**
 * EventStore on one SQLite file (better-sqlite3), emulating EventStoreDB semantics.
 *
 * Appends are group-committed: the appends requested by one piece of synchronous code (before the
 * microtask that flushes them) land in one BEGIN IMMEDIATE transaction, each checked in order against
 * the revisions inside it, each in its own SAVEPOINT so a failing append rejects only itself. On a
 * file the transaction runs on a writer thread that owns the only write connection, so the commit's
 * fsync never blocks the event loop; this thread's connection only reads (WAL: it sees every commit
 * while the writer works). A batch goes to the writer at once, even while earlier ones are in
 * flight: the batches that waited for a commit go in the next transaction together, without waiting
 * for this thread's loop to hear of the last one (under load that wait, and the loop's turn before a
 * setImmediate, were most of a receipt's time to durability).
 */
export class SqliteEventStore implements EventStore {
  private pending: PendingAppend[] = [];
  private pendingDeletes: PendingDelete[] = [];
  private flushScheduled = false;
  /** The batches sent to the writer and not yet reported, oldest first. */
  private readonly inFlight: InFlight[] = [];
  /** Set when the writer thread died: every later append fails with it. */
  private broken: Error | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly subscriptions = new Set<SqliteSubscription>();
  private readonly counters = { batches: 0, appends: 0, events: 0 };
  private writerInstance: BatchWriter | undefined;
  private readonly reads: SqliteEventReads;
  /** The highest position live subscriptions have been handed (own commits and foreign ones). */
  private deliveredHead: bigint;
  private readonly foreignWatch: NodeJS.Timeout | undefined;
  private readonly signalWatch: CommitSignalWatch | undefined;

  static open(filename: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    const synchronous = options.synchronous ?? 'full';
    const db = new Database(filename);
    try {
      prepareDatabase(db, synchronous);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteEventStore(db, synchronous, options.onWriterLost, {
      watchForeignAppendsMs: options.watchForeignAppendsMs ?? DEFAULT_FOREIGN_WATCH_MS,
      lazyWriter: options.startWriter === 'on-first-append',
      signalCommits: options.signalCommits === true,
      watchCommitSignal: options.watchCommitSignal === true,
    });
  }

  private constructor(
    private readonly db: Database.Database,
    private readonly synchronous: SqliteSynchronous,
    private readonly onWriterLost: ((error: Error) => void) | undefined,
    private readonly setup: {
      readonly watchForeignAppendsMs: number;
      readonly lazyWriter: boolean;
      readonly signalCommits: boolean;
      readonly watchCommitSignal: boolean;
    },
  ) {
    this.reads = new SqliteEventReads(db);
    if (!setup.lazyWriter) this.writer();
    this.deliveredHead = this.reads.head() ?? 0n;
    const watching = !db.memory && setup.watchForeignAppendsMs > 0;
    this.signalWatch =
      watching && setup.watchCommitSignal
        ? new CommitSignalWatch(commitSignalPath(db.name), () => this.deliverForeign())
        : undefined;
    // Several processes on one file (WAL): another's commits are seen by watching the head.
    this.foreignWatch = watching
      ? setInterval(() => {
          this.signalWatch?.rewatch();
          this.deliverForeign();
        }, setup.watchForeignAppendsMs).unref()
      : undefined;
  }

  /** Whether the writer exists yet (see `startWriter`). */
  get writerStarted(): boolean {
    return this.writerInstance !== undefined;
  }

  get stats(): SqliteEventStoreStats {
    return { ...this.counters };
  }

  /** Event ids are unique across the store: any repeated id is refused (DuplicateEventIdError). */
  readonly uniqueEventIds = true;

  /**
   * `options.idempotencyKey` is accepted and not needed: a repeated append repeats its event ids,
   * which this store refuses however long ago they were written.
   */
  append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    _options?: AppendOptions,
  ): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    if (this.broken) return Promise.reject(this.broken);
    let serialized: SerializedEvent[];
    try {
      validateAppend(streamId, events, expected);
      // Serialise on the caller's tick: bad data (cycles, BigInt) fails this append alone.
      serialized = events.map((e) => {
        const { data, metadata } = appendJson(e); // as measured, when a batching appender did
        return { id: e.id, type: e.type, data, metadata };
      });
    } catch (error) {
      return Promise.reject(toError(error));
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamId, events: serialized, expected, resolve, reject });
      this.scheduleFlush();
    });
  }

  /** Deleted by the writer thread, with the next group commit; the space is reclaimed after it. */
  deleteStream(streamId: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<void>((resolve, reject) => {
      this.pendingDeletes.push({ streamId, resolve, reject });
      this.scheduleFlush();
    });
  }

  async listStreams(options: ListStreamsOptions): Promise<string[]> {
    return this.reads.streamIds(options.prefix);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.reads.stream(streamId, options);
  }

  async streamRevision(streamId: string): Promise<number | null> {
    return this.reads.revision(streamId);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromPosition ?? 'start';
    if (options.maxCount === 0) return [];
    return this.reads.after(
      from === 'start' ? 0n : from.commit,
      options.filter,
      options.maxCount ?? NO_LIMIT,
      MAX_POSITION,
    );
  }

  readAllPages(options: ReadAllPagesOptions): AsyncGenerator<RecordedEvent[]> {
    return readAllPages(this.db, this.reads, options);
  }

  get sharesPages(): boolean {
    return readsAhead(this.db);
  }

  async headPosition(): Promise<Position | null> {
    const head = this.reads.head();
    return head === null ? null : { commit: head, prepare: head };
  }

  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription {
    if (this.closed) throw new Error('Event store is closed');
    const from = options.fromPosition ?? 'start';
    // Resolved now, synchronously: 'end' means "appended after this call returned" (an append still
    // in flight has not returned: its events come through onCommitted).
    const after = from === 'start' ? 0n : from === 'end' ? this.reportedHead() : from.commit;
    const subscription = new SqliteSubscription(
      {
        // Never past what the writer has reported: the switch to live relies on every later
        // event arriving through onCommitted (see sqlite-subscription.ts).
        readAfter: (cursor, filter, limit) =>
          this.reads.after(cursor, filter, limit, this.inFlight[0]?.headBefore ?? MAX_POSITION),
      },
      after,
      from === 'end',
      options.filter,
      options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
      handlers,
      (s) => this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /**
   * Commits pending appends (waiting for those in flight), stops subscriptions, ends the writer
   * thread, closes the file. Idempotent; refuses new appends from the first call.
   */
  close(): Promise<void> {
    this.closed = true;
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.foreignWatch);
    this.signalWatch?.close();
    this.flush();
    while (this.inFlight.length > 0 || this.hasPending()) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    for (const subscription of [...this.subscriptions]) await subscription.stop();
    await this.writerInstance?.close();
    this.db.close();
  }

  /** The head of $all as far as this process has reported commits. */
  private reportedHead(): bigint {
    return this.inFlight[0]?.headBefore ?? this.reads.head() ?? 0n;
  }

  private hasPending(): boolean {
    return this.pending.length > 0 || this.pendingDeletes.length > 0;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Not setImmediate: under load a turn of the event loop handles many sockets first, and that
    // wait came before every commit. Batches of separate tasks that meet at the writer still share
    // a transaction there.
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.hasPending()) return;
    const batch = this.pending;
    const deletes = this.pendingDeletes;
    this.pending = [];
    this.pendingDeletes = [];
    const flight: InFlight = {
      batch,
      deletes,
      headBefore: this.deliveredHead,
      recordedAt: Date.now(),
    };
    this.inFlight.push(flight);
    const appends = batch.map(({ streamId, events, expected }) => ({ streamId, events, expected }));
    const deleted = deletes.map((d) => d.streamId);
    this.writer().write({ recordedAt: flight.recordedAt, appends, deletes: deleted }, (reply) =>
      this.settle(flight, reply),
    );
  }

  private settle(flight: InFlight, reply: WriteReply): void {
    const { batch, deletes, recordedAt } = flight;
    const index = this.inFlight.indexOf(flight);
    if (index >= 0) this.inFlight.splice(index, 1);
    if ('dead' in reply) {
      const error = new Error(
        `${reply.dead.message}; this append may or may not have been committed`,
        { cause: reply.dead },
      );
      for (const item of [...batch, ...deletes]) item.reject(error);
    } else if ('error' in reply) {
      const failure = rebuildError(reply.error);
      for (const item of [...batch, ...deletes]) item.reject(failure);
    } else {
      this.committed(batch, reply, new Date(recordedAt));
      for (const item of deletes) item.resolve();
    }
    // The next batch was sent before this one was reported: it reads no less than this one did.
    const next = this.inFlight[0];
    if (next && next.headBefore < this.deliveredHead) next.headBefore = this.deliveredHead;
    // What was appended meanwhile has its own flush scheduled.
    if (this.inFlight.length === 0 && !this.hasPending())
      for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private committed(
    batch: readonly PendingAppend[],
    { outcomes, committedAt }: WriteCommitted,
    recordedAt: Date,
  ): void {
    this.counters.batches += 1;
    // Notify before resolving: a caller awaiting its append then sees subscribers already fed.
    if (this.subscriptions.size > 0) {
      const events: RecordedEvent[] = [];
      batch.forEach((item, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) events.push(...toRecordedEvents(item, outcome, recordedAt));
      });
      const first = events[0]?.position.commit;
      // Another process's commits just before ours go first: subscribers see $all in order.
      if (first !== undefined && first > this.deliveredHead + 1n)
        this.deliver(this.reads.after(this.deliveredHead, undefined, NO_LIMIT, first - 1n));
      this.deliver(events);
    } else {
      for (const outcome of outcomes)
        if (outcome?.ok) {
          const last = lastPosition(outcome);
          if (last !== undefined && last > this.deliveredHead) this.deliveredHead = last;
        }
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      const result = appendResultOf(item, outcome, committedAt);
      if (result instanceof Error) return item.reject(result);
      this.counters.appends += 1;
      this.counters.events += outcome?.ok ? outcome.positions.length : 0;
      item.resolve(result);
    });
  }

  /** Hands events (in position order) to the live subscriptions. */
  private deliver(events: readonly RecordedEvent[]): void {
    const last = events[events.length - 1]?.position.commit;
    if (last === undefined) return;
    for (const subscription of [...this.subscriptions]) subscription.onCommitted(events);
    if (last > this.deliveredHead) this.deliveredHead = last;
  }

  /**
   * Looks for another process's commits now instead of at the watch's next tick (that process
   * said it appended: the gateway to its projector child).
   */
  lookForForeignAppends(): void {
    this.deliverForeign();
  }

  /**
   * The watch's tick: commits another process made since the last delivery, a page at a time.
   * Skipped while this process has a commit in flight (its report fills any gap before it).
   */
  private deliverForeign(): void {
    if (this.closed || this.inFlight.length > 0) return;
    const head = this.reads.head() ?? 0n;
    if (this.subscriptions.size === 0) {
      this.deliveredHead = head;
      return;
    }
    while (head > this.deliveredHead) {
      const page = this.reads.after(this.deliveredHead, undefined, FOREIGN_PAGE, head);
      if (page.length === 0) {
        this.deliveredHead = head;
        return;
      }
      this.deliver(page);
    }
  }

  private writer(): BatchWriter {
    // A ':memory:' database exists only on this connection: it is written here, synchronously.
    this.writerInstance ??= this.db.memory
      ? new InThreadWriter(this.db)
      : new WorkerWriter(
          this.db.name,
          this.synchronous,
          (error) => this.writerDied(error),
          this.setup.signalCommits ? commitSignalPath(this.db.name) : undefined,
        );
    return this.writerInstance;
  }

  private writerDied(error: Error): void {
    this.broken = new Error(`${error.message}; the event store accepts no more appends`, {
      cause: error,
    });
    const pending = [...this.pending, ...this.pendingDeletes];
    this.pending = [];
    this.pendingDeletes = [];
    for (const item of pending) item.reject(this.broken);
    if (this.inFlight.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    this.onWriterLost?.(this.broken);
  }
}
