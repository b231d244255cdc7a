import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { ReadAllPagesOptions, RecordedEvent } from '../event-store.port';
import type { SqliteEventReads } from './sqlite-event-reads';
import { PAYLOAD_CODEC_EXPRESSION } from './sqlite-payload-codec';
import { EVENT_COLUMNS, filterToSql, type FilterSql } from './sqlite-rows';

/** Pages the thread reads before the caller has taken them: one in use, one ready, one on the way. */
const PAGES_AHEAD = 2;

/** What the reading thread posts: a page as one JSON text, the end, or why it stopped. */
type ReadAheadMessage = { page: string } | { done: true } | { error: string };

/*
 * The reading thread, as source (a .ts worker file does not load under ts-jest, see read-pool.ts).
 * It reads pages of $all on its own read-only connection and decodes them (inflate, the event id's
 * text) while the caller applies the previous page; a page crosses as one JSON text, built from the
 * stored JSON texts without parsing them, so the caller's single JSON.parse is the only parse.
 */
const READ_AHEAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Errors cross as their message: an error object of the driver's own class arrives without one.
const fail = (error) => {
  parentPort.postMessage({ error: String((error && error.message) || error) });
  parentPort.close();
};
let db;
let select;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  select = db
    .prepare('SELECT ${EVENT_COLUMNS} FROM events WHERE global_position > ? AND global_position <= ?' + workerData.where + ' ORDER BY global_position LIMIT ?')
    .safeIntegers(true);
} catch (error) {
  fail(error);
}
const codec = ${PAYLOAD_CODEC_EXPRESSION};
const dictionaries = new Map();
const dictionary = (id) => {
  let bytes = dictionaries.get(id);
  if (!bytes) {
    bytes = db.prepare('SELECT bytes FROM payload_dictionaries WHERE id = ?').get(id)?.bytes;
    if (!bytes) throw new Error('Event payload dictionary ' + id + ' is missing');
    dictionaries.set(id, bytes);
  }
  return bytes;
};
const upTo = BigInt(workerData.upTo);
let after = BigInt(workerData.after);
let credit = ${PAGES_AHEAD};
let finished = select === undefined;
const readPage = () => {
  const rows = select.all(after, upTo, ...workerData.params, workerData.pageSize);
  const parts = [];
  for (const row of rows) {
    const texts = typeof row.data === 'string'
      ? { data: row.data, metadata: String(row.metadata) }
      : codec.decode(row.data, dictionary);
    parts.push('{"id":' + JSON.stringify(codec.eventIdOf(row.event_id)) + ',"type":' + JSON.stringify(row.type) +
      ',"data":' + texts.data + ',"metadata":' + texts.metadata + ',"streamId":' + JSON.stringify(row.stream_id) +
      ',"revision":' + row.stream_revision + ',"position":"' + row.global_position + '","recordedAt":' + row.recorded_at + '}');
  }
  if (rows.length > 0) {
    after = rows[rows.length - 1].global_position;
    parentPort.postMessage({ page: '[' + parts.join(',') + ']' });
  }
  return rows.length === workerData.pageSize;
};
const pump = () => {
  try {
    while (credit > 0 && !finished) {
      credit -= 1;
      if (!readPage()) {
        finished = true;
        db.close();
        parentPort.postMessage({ done: true });
        parentPort.close();
      }
    }
  } catch (error) {
    finished = true;
    fail(error);
  }
};
parentPort.on('message', () => {
  credit += 1;
  pump();
});
pump();
`;

export interface ReadAheadRange {
  /** The database file (another connection opens it: not ':memory:'). */
  readonly path: string;
  /** Exclusive. */
  readonly after: bigint;
  /** Inclusive. */
  readonly upTo: bigint;
  readonly pageSize: number;
  readonly filter: FilterSql;
}

/** A page's events as the JSON text describes them, positions and times made what the port says. */
function eventsOf(page: string): RecordedEvent[] {
  const events = JSON.parse(page) as Array<
    Omit<RecordedEvent, 'position' | 'recordedAt'> & { position: unknown; recordedAt: unknown }
  >;
  for (const event of events) {
    const position = BigInt(event.position as string);
    event.position = { commit: position, prepare: position };
    event.recordedAt = new Date(event.recordedAt as number);
  }
  return events as unknown as RecordedEvent[];
}

/**
 * $all after `after` up to `upTo`, in pages of `pageSize` events, read and decoded on a thread of
 * their own up to two pages ahead of the caller. Stopping early (a `break`) ends the thread.
 */
export async function* readAhead(range: ReadAheadRange): AsyncGenerator<RecordedEvent[]> {
  const worker = new Worker(READ_AHEAD_SOURCE, {
    eval: true,
    workerData: {
      path: range.path,
      driver: require.resolve('better-sqlite3'),
      after: String(range.after),
      upTo: String(range.upTo),
      pageSize: range.pageSize,
      where: range.filter.where,
      params: range.filter.params,
    },
  });
  const arrived: ReadAheadMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const woken = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: ReadAheadMessage) => {
    arrived.push(message);
    woken();
  });
  worker.on('error', (error) => {
    failure = error;
    woken();
  });
  worker.on('exit', () => {
    failure ??= new Error('The event read-ahead thread stopped before the end of its range');
    woken();
  });
  try {
    for (;;) {
      const message = arrived.shift();
      if (!message) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('done' in message) return;
      if ('error' in message) throw new Error(message.error);
      worker.postMessage(null); // one page taken: the thread may read one more
      yield eventsOf(message.page);
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}

/**
 * The store's readAllPages: read ahead on a thread when the process may run on more than one core
 * (on one, the thread would only add the page's hand-over to the same work: 9 % slower, measured),
 * else here, as for ':memory:' (it exists on this connection alone).
 */
export async function* readAllPages(
  db: Database.Database,
  reads: SqliteEventReads,
  options: ReadAllPagesOptions,
): AsyncGenerator<RecordedEvent[]> {
  const after = options.fromPosition === 'start' ? 0n : options.fromPosition.commit;
  const upTo = options.toPosition.commit;
  const { pageSize } = options;
  if (!db.memory && availableParallelism() > 1) {
    yield* readAhead({ path: db.name, after, upTo, pageSize, filter: filterToSql(options.filter) });
    return;
  }
  for (let from = after; ;) {
    const page = reads.after(from, options.filter, pageSize, upTo);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    from = page[page.length - 1]!.position.commit;
  }
}
