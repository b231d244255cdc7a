import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { event, eventStoreContract } from '../testing/event-store.contract';
import { SubscriptionRecorder, sleep } from '../testing/subscription-recorder';
import { WrongExpectedRevisionError } from '../event-store.port';
import { DuplicateEventIdError } from './sqlite-errors';
import { SqliteEventStore } from './sqlite-event-store';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-event-store-'));
let fileCounter = 0;
const freshFile = (): string => join(dir, `events-${++fileCounter}.sqlite`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteEventStore on a file', () => {
  eventStoreContract(async () => SqliteEventStore.open(freshFile()), {
    startsEmpty: true,
  });
});

describe("SqliteEventStore on ':memory:'", () => {
  eventStoreContract(async () => SqliteEventStore.open(':memory:'), {
    startsEmpty: true,
  });
});

describe('SqliteEventStore specifics', () => {
  let store: SqliteEventStore;
  let file: string;
  beforeEach(() => {
    file = freshFile();
    store = SqliteEventStore.open(file);
  });
  afterEach(() => store.close());

  it('group-commits appends requested in the same tick into one transaction', async () => {
    const before = store.stats.batches;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.append(`g-${i}`, [event('E')], 'no_stream')),
    );
    // All 100 were queued before the scheduled flush ran, so one BEGIN IMMEDIATE carried them.
    expect(store.stats.batches - before).toBe(1);
    expect(store.stats.appends).toBe(100);
  });

  it('rejects only the failing appends of a batch, checking each against the ones before it', async () => {
    const taken = event('Taken');
    await store.append('b-1', [taken], 'no_stream');
    const before = store.stats.batches;
    const results = await Promise.allSettled([
      store.append('b-2', [event('First')], 'no_stream'),
      store.append('b-2', [event('Second')], 'no_stream'), // loses to the one just before it
      store.append('b-2', [event('Third')], 0), // sees First inside the same transaction
      store.append('b-3', [event('Dup'), { ...taken }], 'any'), // duplicate id: rolled back alone
      store.append('b-1', [event('Next')], 0),
    ]);
    expect(store.stats.batches - before).toBe(1);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readStream('b-2')).map((e) => e.type)).toEqual(['First', 'Third']);
    expect(await store.readStream('b-3')).toEqual([]);
    expect(await store.streamRevision('b-3')).toBeNull();
    expect(await store.streamRevision('b-1')).toBe(1);
  });

  it('rejects data that cannot be serialised without touching the rest of the batch', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const results = await Promise.allSettled([
      store.append('j-1', [event('Bad', cyclic)], 'any'),
      store.append('j-2', [event('Good')], 'any'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('uses WAL on files', async () => {
    await store.append('w-1', [event('E')], 'any');
    const other = new Database(file, { readonly: true });
    try {
      expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      other.close();
    }
  });

  it('persists across close and reopen, continuing revisions and positions', async () => {
    const first = await store.append('p-1', [event('A'), event('B')], 'no_stream');
    await store.close();
    store = SqliteEventStore.open(file);
    expect(await store.streamRevision('p-1')).toBe(1);
    expect((await store.readStream('p-1')).map((e) => e.type)).toEqual(['A', 'B']);
    const next = await store.append('p-1', [event('C')], 1);
    expect(next.nextExpectedRevision).toBe(2);
    expect(next.position.commit).toBe(first.position.commit + 1n);
    expect(await store.headPosition()).toEqual(next.position);
  });

  it('starts its writer thread with the first append when asked to, reading before it', async () => {
    await store.append('r-1', [event('A')], 'no_stream');
    await store.close();
    store = SqliteEventStore.open(file, { startWriter: 'on-first-append' });
    expect(store.writerStarted).toBe(false);
    expect((await store.readStream('r-1')).map((e) => e.type)).toEqual(['A']);
    expect(store.writerStarted).toBe(false);
    await store.append('r-1', [event('B')], 0);
    expect(store.writerStarted).toBe(true);
    expect((await store.readStream('r-1')).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('closes a store whose writer never started', async () => {
    await store.close();
    store = SqliteEventStore.open(file, { startWriter: 'on-first-append' });
    await store.close();
    expect(store.writerStarted).toBe(false);
    await expect(store.append('r-2', [event('A')], 'any')).rejects.toThrow();
  });

  it('flushes pending appends on close and refuses work afterwards', async () => {
    const pending = store.append('c-1', [event('A')], 'no_stream');
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextExpectedRevision: 0 });
    await expect(store.append('c-1', [event('B')], 'any')).rejects.toThrow(/closed/);
    expect(() => store.subscribeToAll({}, { onEvents: () => undefined })).toThrow(/closed/);
    await store.close(); // idempotent
    store = SqliteEventStore.open(file);
    expect(await store.streamRevision('c-1')).toBe(0);
  });

  it('stops subscriptions on close without reporting an error', async () => {
    const recorder = new SubscriptionRecorder();
    store.subscribeToAll({ fromPosition: 'end' }, recorder.handlers);
    await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live');
    await store.close();
    await sleep(20);
    expect(recorder.errors).toEqual([]);
    store = SqliteEventStore.open(file);
  });

  it('delivers live events exactly as a read returns them (JSON-normalised)', async () => {
    const recorder = new SubscriptionRecorder();
    const subscription = store.subscribeToAll({ fromPosition: 'end' }, recorder.handlers);
    await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live');
    const when = new Date('2024-01-02T03:04:05.000Z');
    await store.append('n-1', [event('Dated', { when, skipped: undefined })], 'any');
    await recorder.waitFor(() => recorder.events.length === 1, '1 event');
    await subscription.stop();
    const [read] = await store.readStream('n-1');
    expect(recorder.events[0]).toEqual(read);
    expect(read!.data).toEqual({ when: '2024-01-02T03:04:05.000Z' });
  });

  it('falls back to paging when a slow subscriber lets live events pile up', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const recorder = new SubscriptionRecorder(undefined, async (_batch, r) => {
      if (r.batches.length === 0) await gate;
    });
    const subscription = store.subscribeToAll(
      { fromPosition: 'end', maxBatchSize: 500 },
      recorder.handlers,
    );
    await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live');
    await store.append('f-0', [event('First')], 'any');
    await sleep(20);
    // 10 050 queued live events pass the high-water mark; the later appends are then read from the table.
    await store.append(
      'f-1',
      Array.from({ length: 10_050 }, () => event('Bulk', {})),
      'any',
    );
    for (let i = 0; i < 5; i += 1) await store.append('f-2', [event(`Late${i}`)], 'any');
    release();
    await recorder.waitFor(() => recorder.events.length >= 10_056, 'all events', 20_000);
    await subscription.stop();
    const positions = recorder.events.map((e) => e.position.commit);
    expect(new Set(positions).size).toBe(10_056);
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    expect(recorder.events.slice(-5).map((e) => e.type)).toEqual([
      'Late0',
      'Late1',
      'Late2',
      'Late3',
      'Late4',
    ]);
  }, 30_000);

  it('rejects invalid expected revisions and events without id or type', async () => {
    await expect(store.append('v-1', [event('E')], -1)).rejects.toThrow(/non-negative/);
    await expect(store.append('v-1', [{ id: '', type: 'E', data: {} }], 'any')).rejects.toThrow(
      /id and a type/,
    );
    await expect(store.append('', [event('E')], 'any')).rejects.toThrow(/streamId/);
  });
});

/** The writer thread of a file-backed store (private: only these tests reach for it, to kill it). */
const writerThread = (store: SqliteEventStore): Worker =>
  (store as unknown as { writerInstance: { worker: Worker } }).writerInstance.worker;
const bulk = (count: number) =>
  Array.from({ length: count }, () => event('Bulk', { payload: 'x'.repeat(200) }));
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SqliteEventStore writer thread', () => {
  let store: SqliteEventStore;
  let file: string;
  beforeEach(() => {
    file = freshFile();
    store = SqliteEventStore.open(file);
  });
  afterEach(() => store.close());

  it('keeps the event loop turning while a large batch commits', async () => {
    const before = store.stats.batches;
    const appends = Array.from({ length: 20 }, (_, i) =>
      store.append(`big-${i}`, bulk(500), 'no_stream'),
    );
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks += 1;
      if (running) setImmediate(tick);
    };
    // Queued after the flush: had the commit run on this thread, every append would have resolved
    // before the first tick.
    setImmediate(tick);
    await Promise.all(appends);
    const ticksWhileCommitting = ticks;
    running = false;
    expect(store.stats.batches - before).toBe(1);
    expect(store.stats.events).toBe(10_000);
    expect(ticksWhileCommitting).toBeGreaterThan(1);
  });

  it("tells when the commit returned on the writer thread, not when the caller's loop heard of it", async () => {
    const clock = () => performance.timeOrigin + performance.now();
    await store.append('warm', [event('Started')], 'no_stream'); // the thread is up
    const sent = clock();
    const appended = store.append('timed', [event('Timed')], 'no_stream');
    await nextTick(); // the batch is with the writer
    // This loop is held while the writer commits: a time taken on hearing would come after it.
    const heldUntil = clock() + 300;
    while (clock() < heldUntil);
    const { committedAt } = await appended;
    expect(committedAt).toBeGreaterThanOrEqual(sent - 1);
    expect(committedAt).toBeLessThan(heldUntil - 100);
  });

  it("delivers a batch in flight to a subscription from 'end' opened meanwhile", async () => {
    const appended = store.append('e-1', bulk(2000), 'no_stream');
    await nextTick(); // the batch is now with the writer (committed or not, not yet reported)
    const recorder = new SubscriptionRecorder();
    const subscription = store.subscribeToAll({ fromPosition: 'end' }, recorder.handlers);
    await appended;
    const later = await store.append('e-2', [event('Later')], 'no_stream');
    await recorder.waitFor(() => recorder.events.length >= 2001, 'the batch and the later event');
    await subscription.stop();
    expect(recorder.events).toHaveLength(2001);
    expect(recorder.events[2000]!.position).toEqual(later.position);
    expect(recorder.events.slice(0, 2000).map((e) => e.revision)).toEqual(
      Array.from({ length: 2000 }, (_, i) => i),
    );
  });

  it('sends batches while one is in flight: each meets its own checks, in order, and a subscription opened meanwhile misses none', async () => {
    const big = store.append('p-big', bulk(20_000), 'no_stream');
    await nextTick(); // with the writer, for a while
    const alsoBig = store.append('p-big-2', bulk(20_000), 'no_stream');
    await nextTick(); // sent while the first commits: still in flight once it is reported
    const second = store.append('p-1', [event('First')], 'no_stream');
    await nextTick();
    const conflicting = store.append('p-1', [event('Late')], 'no_stream'); // loses to First
    await nextTick();
    const third = store.append('p-1', [event('Next')], 0); // sees First, a batch before it
    await nextTick();
    await big;
    // Opened from the start once the first is reported and the others are not: pages up to what
    // was reported (the batches behind it were sent before it), then goes live.
    const recorder = new SubscriptionRecorder();
    const subscription = store.subscribeToAll({}, recorder.handlers);
    await expect(second).resolves.toMatchObject({ nextExpectedRevision: 0 });
    await expect(conflicting).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    const last = await third;
    expect(last.nextExpectedRevision).toBe(1);
    await alsoBig;
    await recorder.waitFor(() => recorder.events.length >= 40_002, 'every committed event');
    await subscription.stop();
    const positions = recorder.events.map((e) => e.position.commit);
    expect(new Set(positions).size).toBe(40_002);
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    expect(recorder.events.slice(-2).map((e) => e.type)).toEqual(['First', 'Next']);
    expect(recorder.events[40_001]!.position).toEqual(last.position);
  });

  it('close() waits for the transaction in flight and the appends collected behind it', async () => {
    const first = store.append('c-big', bulk(5000), 'no_stream');
    await nextTick(); // first is with the writer
    const second = store.append('c-next', [event('Next')], 'no_stream'); // collects behind it
    const closing = store.close();
    await expect(store.append('c-late', [event('Late')], 'any')).rejects.toThrow(/closed/);
    await closing;
    await expect(first).resolves.toMatchObject({ nextExpectedRevision: 4999 });
    await expect(second).resolves.toMatchObject({ nextExpectedRevision: 0 });
    expect(store.stats.batches).toBe(2);
    store = SqliteEventStore.open(file);
    expect(await store.streamRevision('c-big')).toBe(4999);
    expect(await store.streamRevision('c-next')).toBe(0);
    expect(await store.streamRevision('c-late')).toBeNull();
  });

  it('fails the appends in flight, queued behind them, and every later one, when the writer dies', async () => {
    await store.append('d-0', [event('Before')], 'no_stream');
    const inFlight = store.append('d-1', bulk(20_000), 'no_stream');
    await nextTick(); // d-1 is with the writer, for a while (20 000 rows)
    const queued = store.append('d-2', [event('Queued')], 'no_stream');
    await nextTick(); // sent too: it waits in the writer's port
    await writerThread(store).terminate();
    for (const append of [inFlight, queued])
      await expect(append).rejects.toThrow(
        /writer thread exited.*may or may not have been committed/,
      );
    await expect(store.append('d-3', [event('Later')], 'any')).rejects.toThrow(
      /writer thread exited.*accepts no more appends/,
    );
    await store.close(); // does not hang
    store = SqliteEventStore.open(file);
    expect(await store.streamRevision('d-0')).toBe(0);
    expect(await store.streamRevision('d-2')).toBeNull();
    expect((await store.append('d-4', [event('After')], 'no_stream')).nextExpectedRevision).toBe(0);
  });

  it('tells its owner once when the writer is lost (the gateway stops serving)', async () => {
    await store.close();
    const lost: Error[] = [];
    store = SqliteEventStore.open(file, { onWriterLost: (error) => lost.push(error) });
    await store.append('l-0', [event('Before')], 'no_stream');
    await writerThread(store).terminate();
    await expect(store.append('l-1', [event('After')], 'any')).rejects.toThrow(/accepts no more/);
    expect(lost.map((error) => error.message)).toEqual([
      expect.stringMatching(/writer thread exited.*accepts no more appends/),
    ]);
  });

  it('fails every append clearly when the writer cannot open the file', async () => {
    await store.close();
    store = SqliteEventStore.open(file);
    // Gone before the thread opens it (the thread opens with fileMustExist).
    rmSync(file);
    await expect(store.append('o-1', [event('E')], 'any')).rejects.toThrow(/writer thread failed/);
    await expect(store.append('o-2', [event('E')], 'any')).rejects.toThrow(
      /accepts no more appends/,
    );
    await store.close();
    store = SqliteEventStore.open(freshFile());
  });
});
