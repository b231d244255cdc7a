import { Worker } from 'node:worker_threads';
import { lowerThreadPrioritySource } from './thread-priority';
import type { SqlValue } from './filter-to-sql';

/** Console reads get a smaller share of a busy core than the relay (weight 110 against 1 024). */
const READER_NICENESS = 10;

/** One read: a SELECT and its bound values; `get` returns the first row (or undefined), `all` every row. */
export interface ReadQuery {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly mode: 'get' | 'all';
  /**
   * When `probe` (a SELECT of one row `{a}`) answers a truthy `a`, run this query instead; both run
   * in one read transaction.
   */
  readonly unlessArrays?: {
    readonly probe: string;
    readonly sql: string;
    readonly params: readonly SqlValue[];
  };
}

/*
 * The worker's source, evaluated as CommonJS (`eval: true`): a .ts worker file would not load under
 * ts-jest, and a separate .js file would need the build to copy it. It opens its own read-only
 * connection (WAL: readers never wait for the writer and see the last commit) and keeps its own
 * prepared statements. The regexp() function repeats regexp-function.ts: keep the two in step.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${lowerThreadPrioritySource(READER_NICENESS)}
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
const patterns = new Map();
db.function('regexp', { varargs: true, deterministic: true }, (...args) => {
  const [pattern, flags, value] = args.length === 2 ? [args[0], '', args[1]] : args;
  if (typeof pattern !== 'string' || typeof value !== 'string') return 0;
  const key = String(flags) + '/' + pattern;
  let re = patterns.get(key);
  if (!re) {
    if (patterns.size >= 256) patterns.clear();
    re = new RegExp(pattern, typeof flags === 'string' ? flags : '');
    patterns.set(key, re);
  }
  return re.test(value) ? 1 : 0;
});
const statements = new Map();
const prepared = (sql) => {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= 500) statements.clear();
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
};
const run = (m) => {
  let sql = m.sql;
  let params = m.params;
  if (m.unlessArrays && prepared(m.unlessArrays.probe).get().a) {
    sql = m.unlessArrays.sql;
    params = m.unlessArrays.params;
  }
  const statement = prepared(sql);
  return m.mode === 'get' ? statement.get(...params) : statement.all(...params);
};
const probed = db.transaction(run);
parentPort.on('message', (m) => {
  try {
    // The probe and the query it chooses read one snapshot.
    const result = m.unlessArrays ? probed(m) : run(m);
    parentPort.postMessage({ id: m.id, result });
  } catch (error) {
    parentPort.postMessage({
      id: m.id,
      error: { message: String((error && error.message) || error), code: error && error.code },
    });
  }
});
`;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  idleTimer?: NodeJS.Timeout;
}

interface Answer {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

/**
 * A few worker threads, each with its own read-only connection to the SQLite file, so console reads
 * (a search over a million users, a deep page of logs) run beside the event loop instead of on it:
 * better-sqlite3 is synchronous, and one slow query on the main thread stalls every request, the
 * relay's included. Workers start on the first read and are replaced if one dies. A query goes to the
 * worker with the fewest queries in flight. A worker without a query for `idleMs` is stopped (its
 * V8 heap and SQLite cache are ~10 MiB of an idle gateway); the next read starts one again.
 */
export class ReadPool {
  private readonly slots: Array<Slot | undefined>;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    size: number,
    private readonly idleMs = 60_000,
  ) {
    this.slots = new Array<Slot | undefined>(Math.max(1, size)).fill(undefined);
  }

  run(query: ReadQuery): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The read store is closed'));
    const slot = this.pick();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (slot.pending.size === 0) {
        slot.worker.ref();
        clearTimeout(slot.idleTimer);
      }
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({
        id,
        sql: query.sql,
        params: query.params,
        mode: query.mode,
        unlessArrays: query.unlessArrays,
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.slots.filter((s): s is Slot => s !== undefined);
    this.slots.fill(undefined);
    await Promise.all(
      workers.map(async (slot) => {
        clearTimeout(slot.idleTimer);
        this.failAll(slot, new Error('The read store closed during the query'));
        await slot.worker.terminate();
      }),
    );
  }

  private pick(): Slot {
    let best: Slot | undefined;
    let free = -1;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) {
        if (free < 0) free = i;
      } else if (!best || slot.pending.size < best.pending.size) {
        best = slot;
      }
    }
    // Start another worker only while every running one is busy.
    if ((!best || best.pending.size > 0) && free >= 0) return this.start(free);
    return best!;
  }

  private start(index: number): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, driver: require.resolve('better-sqlite3') },
    });
    const slot: Slot = { worker, pending: new Map() };
    worker.unref(); // an idle pool never keeps the process alive; run() refs it while queries are in flight
    worker.on('message', (answer: Answer) => {
      const pending = slot.pending.get(answer.id);
      if (!pending) return;
      slot.pending.delete(answer.id);
      if (slot.pending.size === 0) {
        worker.unref();
        this.idleAfter(index, slot);
      }
      if (answer.error) {
        const error = new Error(answer.error.message) as Error & { code?: string };
        if (answer.error.code) error.code = answer.error.code;
        pending.reject(error);
      } else {
        pending.resolve(answer.result);
      }
    });
    const retire = (error: Error) => {
      clearTimeout(slot.idleTimer);
      if (this.slots[index] === slot) this.slots[index] = undefined;
      this.failAll(slot, error);
    };
    worker.on('error', (error) => retire(error));
    worker.on('exit', (code) => retire(new Error(`A read worker exited (code ${code})`)));
    this.slots[index] = slot;
    return slot;
  }

  /** Out of the pool first (no query reaches it), then stopped. */
  private idleAfter(index: number, slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.pending.size > 0 || this.slots[index] !== slot) return;
      this.slots[index] = undefined;
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private failAll(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
  }
}
