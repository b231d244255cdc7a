import type BetterSqlite3 from 'better-sqlite3';
import { runInThisContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import type { ExpectedRevision } from '../event-store.port';
import { WRITER_DICTIONARIES_SOURCE } from './sqlite-dictionaries';
import { PAYLOAD_CODEC_EXPRESSION, payloadCodec, type PayloadCodec } from './sqlite-payload-codec';
import { PAGE_CACHE_KIB, type SqliteSynchronous } from './sqlite-schema';

/** One event as the writer stores it: data and metadata already JSON on the caller's tick. */
export interface SerializedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

export interface WriteAppend {
  readonly streamId: string;
  readonly events: readonly SerializedEvent[];
  readonly expected: ExpectedRevision;
}

/** One group-committed transaction: the appends of one flush, in order. */
export interface WriteBatch {
  /** Set on the main thread, so every event of a batch carries the time it was flushed. */
  readonly recordedAt: number;
  readonly appends: readonly WriteAppend[];
  /** Streams whose rows go, after the appends, in the same transaction (retention). */
  readonly deletes?: readonly string[];
}

/** What crosses the thread boundary instead of an Error (errors do not keep class or fields). */
export interface ErrorDescription {
  readonly message: string;
  readonly name?: string;
  readonly code?: string;
}

export type WriteOutcome =
  | { readonly ok: true; readonly firstRevision: number; readonly positions: readonly bigint[] }
  | { readonly ok: false; readonly actual: number | null }
  | { readonly ok: false; readonly duplicate: ErrorDescription };

/** A batch's reply when its transaction committed. */
export interface WriteCommitted {
  readonly outcomes: readonly WriteOutcome[];
  /** The writer thread's clock when the commit returned (AppendResult's `committedAt`). */
  readonly committedAt: number;
}

export type WriteReply =
  | WriteCommitted
  /** The transaction failed as a whole (I/O, disk full, lock timeout): nothing was written. */
  | { readonly error: ErrorDescription }
  /** The writer died with this batch in flight: it may or may not have been committed. */
  | { readonly dead: Error };

/**
 * Commits batches in the order written and calls back exactly once per batch, in that order. A
 * batch may be written while earlier ones are in flight: the writer thread commits those that
 * waited for it in one transaction.
 */
export interface BatchWriter {
  write(batch: WriteBatch, done: (reply: WriteReply) => void): void;
  /** Waits for nothing: the store only closes the writer once no batch is in flight. */
  close(): Promise<void>;
}

/*
 * The transaction, as JavaScript source: the worker evaluates it (a .ts worker file does not load under
 * ts-jest, see read-pool.ts), and the in-thread writer (':memory:', which another thread cannot open)
 * evaluates the very same text, so both paths run one implementation. Each append runs in a nested
 * transaction, i.e. a SAVEPOINT: a wrong expected revision or a duplicate event id rolls back that
 * append alone; any other error (I/O, disk full) fails the whole BEGIN IMMEDIATE transaction.
 */
const WRITER_SOURCE = `(function makeWriter(db, codec) {
  const dictionaries = ${WRITER_DICTIONARIES_SOURCE}(db, codec);
  const selectRevision = db.prepare('SELECT revision FROM streams WHERE stream_id = ?');
  const selectEventId = db.prepare('SELECT 1 FROM events WHERE event_id = ?');
  const insertEvent = db
    .prepare('INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .safeIntegers(true);
  const deleteEvents = db.prepare('DELETE FROM events WHERE stream_id = ?');
  const deleteStream = db.prepare('DELETE FROM streams WHERE stream_id = ?');
  // INCREMENTAL (2) on files created since retention: freed pages go back to the file system.
  const reclaims = db.pragma('auto_vacuum', { simple: true }) === 2;
  const upsertStream = db.prepare('INSERT INTO streams (stream_id, revision) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision');
  // Files from before ids were stored as bytes may hold UUIDs as text, which the unique index
  // cannot match with their bytes: there the writer also looks for the text form. Text sorts
  // before blobs, so the range reads only text ids.
  const UUID_GLOB = [8, 4, 4, 4, 12].map((n) => '[0-9a-f]'.repeat(n)).join('-');
  const legacyTextIds =
    db.prepare("SELECT 1 FROM events WHERE event_id BETWEEN '0' AND 'g' AND event_id GLOB ? LIMIT 1").get(UUID_GLOB) !== undefined;
  const EMPTY = Buffer.alloc(0);
  const storedAsText = (id, stored) => legacyTextIds && stored !== id && selectEventId.get(id) !== undefined;
  const isStored = (id) => {
    const stored = codec.storedEventId(id);
    return selectEventId.get(stored) !== undefined || storedAsText(id, stored);
  };
  const duplicate = () =>
    Object.assign(new Error('UNIQUE constraint failed: events.event_id'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
  class WrongRevision { constructor(actual) { this.actual = actual; } }
  const holds = (expected, current) =>
    expected === 'any' ? true
      : expected === 'no_stream' ? current === null
      : expected === 'stream_exists' ? current !== null
      : current === expected;
  // Same test as isDuplicateEventId in sqlite-errors.ts: keep the two in step.
  const isDuplicate = (e) =>
    e && e.code === 'SQLITE_CONSTRAINT_UNIQUE' && String(e.message).includes('events.event_id');
  const describe = (e) => ({ message: String((e && e.message) || e), name: e && e.name, code: e && e.code });
  const appendOne = db.transaction((item, recordedAt) => {
    const row = selectRevision.get(item.streamId);
    const current = row ? row.revision : null;
    if (!holds(item.expected, current)) {
      // A retry of an append that was written (same ids, same expected revision) is a duplicate,
      // as on EventStoreDB (the shared rule, docs/deployment.md), not a conflict.
      if (item.events.some((e) => isStored(e.id))) throw duplicate();
      throw new WrongRevision(current);
    }
    let revision = current === null ? -1 : current;
    const positions = [];
    for (const e of item.events) {
      revision += 1;
      const stored = codec.storedEventId(e.id);
      if (storedAsText(e.id, stored)) throw duplicate();
      // Encoded here, on the writer's thread: the caller's loop only serialised the JSON.
      const blob = codec.encode(dictionaries.forType(e.type), e);
      const info = blob
        ? insertEvent.run(stored, item.streamId, revision, e.type, blob, EMPTY, recordedAt)
        : insertEvent.run(stored, item.streamId, revision, e.type, e.data, e.metadata, recordedAt);
      positions.push(BigInt(info.lastInsertRowid));
    }
    upsertStream.run(item.streamId, revision);
    return { ok: true, firstRevision: revision - item.events.length + 1, positions };
  });
  // What each batch of the transaction added to the dictionaries: forgotten if it rolls back.
  const undos = [];
  let deletedEvents = 0;
  const flushOne = (batch) => {
    undos.push(dictionaries.prepare(batch));
    const outcomes = batch.appends.map((item) => {
      try {
        return appendOne(item, batch.recordedAt);
      } catch (error) {
        if (error instanceof WrongRevision) return { ok: false, actual: error.actual };
        if (isDuplicate(error)) return { ok: false, duplicate: describe(error) };
        throw error;
      }
    });
    for (const streamId of batch.deletes || []) {
      deletedEvents += deleteEvents.run(streamId).changes;
      deleteStream.run(streamId);
    }
    return { outcomes };
  };
  const flush = db.transaction((batches) => batches.map(flushOne));
  const commit = (batches) => {
    undos.length = 0;
    deletedEvents = 0;
    try {
      const replies = flush.immediate(batches);
      // Comparable across threads: each thread's timeOrigin is the same wall clock, read at its start.
      const committedAt = performance.timeOrigin + performance.now();
      for (const reply of replies) reply.committedAt = committedAt;
      // After the commit, in a transaction of its own: a failure here loses no delete.
      if (deletedEvents > 0 && reclaims) {
        try {
          db.exec('PRAGMA incremental_vacuum');
        } catch (error) {
          // Space only: the free pages are reused by later appends, the next delete retries.
        }
      }
      return replies;
    } catch (error) {
      // Rolled back with the batches: later rows must not refer to them.
      for (const undo of undos.reverse()) undo();
      return error;
    }
  };
  // Several batches in one transaction: one fsync for all. If it fails as a whole, each batch is
  // tried alone, so one that cannot be written fails no other.
  return (batches) => {
    const replies = commit(batches);
    if (Array.isArray(replies)) return replies;
    if (batches.length === 1) return [{ error: describe(replies) }];
    return batches.map((batch) => {
      const alone = commit([batch]);
      return Array.isArray(alone) ? alone[0] : { error: describe(alone) };
    });
  };
})`;

/** The writer thread's name on Linux (`/proc/<pid>/task/<tid>/comm`, at most 15 characters). */
export const WRITER_THREAD_NAME = 'tollgate-writer';

/*
 * The writer thread: owns the only write connection to the file (the main thread's connection only
 * reads; WAL lets it read every commit while this one writes, and the fsync happens here, off the
 * event loop). The main thread has created the schema before starting it. It keeps the loop's CPU
 * priority: niced, its commits waited for the loop's time slice under load and receipts became
 * durable later (docs/performance-journal.md, "Latency and CPU on the relay's loop…"), while the
 * read workers stay niced (read-pool.ts).
 */
const WORKER_SOURCE = `
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
try {
  // Named for top -H, perf and taskset: every thread of node is called "node" otherwise.
  fs.writeFileSync('/proc/thread-self/comm', '${WRITER_THREAD_NAME}');
} catch (error) {
  // Not Linux, or no /proc: the name is only a convenience.
}
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -' + workerData.pageCacheKiB);
// Each append's savepoint journals the pages it changes; past 64 KiB SQLite would spill that
// journal to a new file in the temporary directory, created and closed within the transaction.
// In memory it holds one append's pages at most (released with its savepoint); this connection
// never sorts, the other use of temporary storage.
db.pragma('temp_store = MEMORY');
const write = ${WRITER_SOURCE}(db, ${PAYLOAD_CODEC_EXPRESSION});
// The commit signal (sqlite-commit-signal.ts): one byte rewritten after each transaction.
const openSignal = () => {
  try {
    return fs.openSync(workerData.signalPath, 'w');
  } catch (error) {
    return undefined; // watchers then look at their own pace; appends are not refused for it
  }
};
const signal = workerData.signalPath ? openSignal() : undefined;
const mark = Buffer.alloc(1);
const tell = () => {
  try {
    fs.writeSync(signal, mark, 0, 1, 0);
  } catch (error) {
    // Only a watcher's wake-up is lost: it still looks at its own pace.
  }
};
const close = () => {
  if (signal !== undefined) fs.closeSync(signal);
  db.close();
  parentPort.postMessage('closed');
};
parentPort.on('message', (m) => {
  if (m === 'close') return close();
  // Batches sent while the last transaction ran wait in the port: they commit together.
  const batches = [m];
  let closing = false;
  for (let next; (next = receiveMessageOnPort(parentPort)) !== undefined; ) {
    if (next.message === 'close') {
      closing = true;
      break;
    }
    batches.push(next.message);
  }
  const replies = write(batches);
  if (signal !== undefined) tell();
  parentPort.postMessage(replies);
  if (closing) close();
});
`;

/** One reply per batch, in order. */
type WriteFunction = (batches: readonly WriteBatch[]) => WriteReply[];

/** For ':memory:' databases: the same transaction, synchronously on the caller's thread. */
export class InThreadWriter implements BatchWriter {
  private readonly run: WriteFunction;

  constructor(db: BetterSqlite3.Database) {
    const makeWriter = runInThisContext(WRITER_SOURCE) as (
      db: unknown,
      codec: PayloadCodec,
    ) => WriteFunction;
    this.run = makeWriter(db, payloadCodec());
  }

  write(batch: WriteBatch, done: (reply: WriteReply) => void): void {
    done(this.run([batch])[0]!);
  }

  async close(): Promise<void> {
    // The store closes the shared connection.
  }
}

/** For files: the transaction on a worker thread that owns the write connection. */
export class WorkerWriter implements BatchWriter {
  private readonly worker: Worker;
  /** The callbacks of the batches in flight, oldest first. */
  private readonly inFlight: Array<(reply: WriteReply) => void> = [];
  private dead: Error | undefined;
  private closing = false;
  private onClosed: (() => void) | undefined;

  constructor(
    path: string,
    synchronous: SqliteSynchronous,
    /** Told once if the thread dies (not when closed): every later append must fail. */
    private readonly onDeath: (error: Error) => void,
    /** The commit signal's file, rewritten after each transaction; none when absent. */
    signalPath?: string,
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path,
        synchronous: synchronous === 'full' ? 'FULL' : 'NORMAL',
        driver: require.resolve('better-sqlite3'),
        signalPath,
        pageCacheKiB: PAGE_CACHE_KIB,
      },
    });
    // An idle writer never keeps the process alive; write() refs it while a batch is in flight.
    this.worker.unref();
    this.worker.on('message', (replies: WriteReply[] | 'closed') => {
      if (replies === 'closed') return this.onClosed?.();
      const done = this.inFlight.splice(0, replies.length);
      if (this.inFlight.length === 0) this.worker.unref();
      replies.forEach((reply, index) => done[index]?.(reply));
    });
    this.worker.on('error', (error) =>
      this.die(
        new Error(`The event store's writer thread failed: ${error.message}`, { cause: error }),
      ),
    );
    this.worker.on('exit', (code) =>
      this.die(new Error(`The event store's writer thread exited (code ${code})`)),
    );
  }

  write(batch: WriteBatch, done: (reply: WriteReply) => void): void {
    if (this.dead) return done({ dead: this.dead });
    this.inFlight.push(done);
    this.worker.ref();
    this.worker.postMessage(batch);
  }

  async close(): Promise<void> {
    if (this.dead || this.closing) return;
    this.closing = true;
    this.worker.ref();
    // Let the thread close its connection itself (the last one out checkpoints the WAL), then end it.
    await new Promise<void>((resolve) => {
      this.onClosed = resolve;
      this.worker.once('exit', () => resolve());
      this.worker.postMessage('close');
    });
    await this.worker.terminate();
  }

  private die(error: Error): void {
    if (this.dead || this.closing) return;
    this.dead = error;
    for (const done of this.inFlight.splice(0)) done({ dead: error });
    this.onDeath(error);
  }
}
