import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import {
  SecondReaderStoppedError,
  type ReadAllPagesOptions,
  type RecordedEvent,
} from '../event-store.port';
import type { SqliteEventReads } from './sqlite-event-reads';
import { PAYLOAD_CODEC_EXPRESSION } from './sqlite-payload-codec';
import { filterToSql, type FilterSql } from './sqlite-rows';

/**
 * Pages the thread reads before a reader has taken them. With two readers (a rebuild's lanes) the
 * thread keeps to the slower, and each slows down now and then: two pages ahead made the other
 * wait, six did not (docs/performance-journal.md, "The rebuild in two lanes").
 */
export const PAGES_AHEAD = 6;

/**
 * The events table's columns as the reading thread selects them. A 16-byte event id comes as its
 * hex text and a compressed row's (empty) metadata as NULL: each saves the driver a Buffer per row,
 * ~1 µs an event together (docs/performance-journal.md, "The event payload codec's kept streams…").
 */
const READ_AHEAD_COLUMNS = [
  'global_position',
  "CASE WHEN typeof(event_id) = 'blob' THEN lower(hex(event_id)) END",
  "CASE WHEN typeof(event_id) = 'blob' THEN NULL ELSE event_id END",
  'stream_id',
  'stream_revision',
  'type',
  'data',
  "CASE WHEN typeof(data) = 'blob' THEN NULL ELSE metadata END",
  'recorded_at',
].join(', ');

/**
 * The most characters of one JSON text of a page. A page of 1 000 receipts is ~700 KB: as one
 * string, each copy of it (the join, the message's serialisation, each reader's copy) was a new
 * object in V8's large-object space, whose fresh memory the kernel maps page by page: those faults
 * took about a tenth of a rebuild's CPU on the bench's VM. Parts of 32 K characters (64 KiB at
 * most, two bytes a character) stay in the young generation, whose memory is reused
 * (docs/performance-journal.md, "A page of the log in parts…").
 */
export const PAGE_PART_CHARS = 32 * 1024;

/**
 * What the reading thread posts: a page as JSON texts of its events in order (each an array), the
 * end, or why it stopped.
 */
type ReadAheadMessage =
  { page: string[] } | { done: true } | { error: string } | { secondReaderStopped: true };

/*
 * The reading thread, as source (a .ts worker file does not load under ts-jest, see read-pool.ts).
 * It reads pages of $all on its own read-only connection and decodes them (inflate, the event id's
 * text) while the caller applies the previous page; a page crosses as JSON texts of up to
 * PAGE_PART_CHARS characters, built from the stored JSON texts without parsing them, so the
 * caller's JSON.parse of each is the only parse.
 * With a second reader (`alsoTo`), each page goes to both and the thread stays PAGES_AHEAD pages
 * ahead of the slower one; that reader's port closing before the end stops the read for both.
 */
const READ_AHEAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Errors cross as their message: an error object of the driver's own class arrives without one.
const fail = (error) => {
  const message = { error: String((error && error.message) || error) };
  parentPort.postMessage(message);
  if (workerData.alsoTo) workerData.alsoTo.postMessage(message);
  parentPort.close();
};
let db;
let select;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  select = db
    .prepare(${JSON.stringify(`SELECT ${READ_AHEAD_COLUMNS} FROM events WHERE global_position > ? AND global_position <= ?`)} + workerData.where + ' ORDER BY global_position LIMIT ?')
    .safeIntegers(true)
    .raw(true); // arrays, in READ_AHEAD_COLUMNS' order: no object per row
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
const share = workerData.alsoTo;
let credit = ${PAGES_AHEAD};
let shareCredit = share ? ${PAGES_AHEAD} : Infinity;
let finished = select === undefined;
const post = (message) => {
  parentPort.postMessage(message);
  if (share) share.postMessage(message);
};
const readPage = () => {
  const rows = select.all(after, upTo, ...workerData.params, workerData.pageSize);
  const texts = [];
  let events = [];
  let chars = 0;
  for (const [position, idHex, idText, streamId, revision, type, data, metadata, recordedAt] of rows) {
    const payload = typeof data === 'string'
      ? { data, metadata: String(metadata) }
      : codec.decode(data, dictionary);
    const id = idHex === null ? JSON.stringify(idText) : '"' + codec.eventIdOfHex(idHex) + '"';
    const event = '{"id":' + id + ',"type":' + JSON.stringify(type) +
      ',"data":' + payload.data + ',"metadata":' + payload.metadata + ',"streamId":' + JSON.stringify(streamId) +
      ',"revision":' + revision + ',"position":"' + position + '","recordedAt":' + recordedAt + '}';
    if (events.length > 0 && chars + event.length > ${PAGE_PART_CHARS}) {
      texts.push('[' + events.join(',') + ']');
      events = [];
      chars = 0;
    }
    events.push(event);
    chars += event.length + 1;
  }
  if (rows.length > 0) {
    texts.push('[' + events.join(',') + ']');
    after = rows[rows.length - 1][0];
    post({ page: texts });
  }
  return rows.length === workerData.pageSize;
};
const pump = () => {
  try {
    while (credit > 0 && shareCredit > 0 && !finished) {
      credit -= 1;
      shareCredit -= 1;
      if (!readPage()) {
        finished = true;
        db.close();
        post({ done: true });
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
if (share) {
  share.on('message', () => {
    shareCredit += 1;
    pump();
  });
  // After the end the thread waits for this: the second reader closes its port once it has taken
  // the last pages (a thread ended from outside could lose the ones still on their way).
  share.on('close', () => {
    if (!finished) {
      finished = true;
      parentPort.postMessage({ secondReaderStopped: true });
      parentPort.close();
    }
  });
}
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

type PostedEvent = Omit<RecordedEvent, 'position' | 'recordedAt'> & {
  position: unknown;
  recordedAt: unknown;
};

/** A page's events as its JSON texts describe them, positions and times made what the port says. */
function eventsOf(page: readonly string[]): RecordedEvent[] {
  const events: PostedEvent[] = [];
  for (const text of page) {
    for (const event of JSON.parse(text) as PostedEvent[]) {
      const position = BigInt(event.position as string);
      event.position = { commit: position, prepare: position };
      event.recordedAt = new Date(event.recordedAt as number);
      events.push(event);
    }
  }
  return events as unknown as RecordedEvent[];
}

/**
 * The pages a reading thread posts, as they arrive: `source` is that thread (the first reader) or
 * the port of a second reader. Each page taken gives the thread one page of credit back.
 */
async function* receivePages(
  source: Pick<Worker, 'postMessage'>,
  listen: (arrive: (message: ReadAheadMessage) => void, stop: (error: Error) => void) => void,
): AsyncGenerator<RecordedEvent[]> {
  const arrived: ReadAheadMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const woken = () => {
    wake?.();
    wake = undefined;
  };
  listen(
    (message) => {
      arrived.push(message);
      woken();
    },
    (error) => {
      failure ??= error;
      woken();
    },
  );
  for (;;) {
    const message = arrived.shift();
    if (!message) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    if ('done' in message) return;
    if ('error' in message) throw new Error(message.error);
    if ('secondReaderStopped' in message) throw new SecondReaderStoppedError();
    source.postMessage(null); // one page taken: the thread may read one more
    yield eventsOf(message.page);
  }
}

const STOPPED_EARLY = 'The event read-ahead thread stopped before the end of its range';

export interface ReadAheadOptions {
  /** A second reader's port: it gets every page too, through `pagesFromPort`. */
  readonly alsoTo?: MessagePort;
}

/**
 * $all after `after` up to `upTo`, in pages of `pageSize` events, read and decoded on a thread of
 * their own up to PAGES_AHEAD pages ahead of the caller. Stopping early (a `break`) ends the thread.
 */
export async function* readAhead(
  range: ReadAheadRange,
  { alsoTo }: ReadAheadOptions = {},
): AsyncGenerator<RecordedEvent[]> {
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
      alsoTo,
    },
    transferList: alsoTo ? [alsoTo] : [],
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  let complete = false;
  try {
    yield* receivePages(worker, (arrive, stop) => {
      worker.on('message', arrive);
      worker.on('error', stop);
      worker.on('exit', () => stop(new Error(STOPPED_EARLY)));
    });
    complete = true;
  } finally {
    // A second reader may still be taking the last pages: the thread ends when it has.
    if (!complete || !alsoTo) await worker.terminate();
    await exited;
    worker.removeAllListeners();
  }
}

/**
 * The second reader's end of `readAllPages({ alsoTo })`: the same pages, on another thread. Its
 * pace holds the reading thread back as the first reader's does; stopping early (a `break`) closes
 * the port, which stops the read for the first reader too.
 */
export async function* pagesFromPort(port: MessagePort): AsyncGenerator<RecordedEvent[]> {
  try {
    yield* receivePages(port, (arrive, stop) => {
      port.on('message', arrive);
      port.on('close', () => stop(new Error(STOPPED_EARLY)));
    });
  } finally {
    port.removeAllListeners();
    port.close();
  }
}

/** Whether `readAllPages` reads on a thread here, and so may hand its pages to a second reader. */
export const readsAhead = (db: Database.Database): boolean =>
  !db.memory && availableParallelism() > 1;

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
  const { pageSize, alsoTo } = options;
  if (readsAhead(db)) {
    const filter = filterToSql(options.filter);
    yield* readAhead({ path: db.name, after, upTo, pageSize, filter }, { alsoTo });
    return;
  }
  if (alsoTo) throw new Error('This event store reads on the calling thread: no second reader');
  for (let from = after; ;) {
    const page = reads.after(from, options.filter, pageSize, upTo);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    from = page[page.length - 1]!.position.commit;
  }
}
