import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import {
  SecondReaderStoppedError,
  type EventData,
  type Position,
  type RecordedEvent,
} from '../event-store.port';
import { SqliteEventStore } from './sqlite-event-store';
import { PAGE_PART_CHARS, PAGES_AHEAD, pagesFromPort, readAhead } from './sqlite-read-ahead';
import { filterToSql } from './sqlite-rows';

/** Receipt-like events (compressed on disk), a small one (text), a client's own id. */
function events(n: number): EventData[] {
  return Array.from({ length: n }, (_, i) =>
    i % 10 === 3
      ? { id: `client-id-${i}`, type: 'Small', data: i, metadata: {} }
      : {
          id: randomUUID(),
          type: i % 2 === 0 ? 'RequestRelayed' : 'RequestFailed',
          data: { requestId: `req-${i}`, model: 'gpt-4o', text: 'quote " and \\ and \n é', i },
          metadata: { schemaVersion: 1, occurredAt: new Date(1_700_000_000_000 + i).toISOString() },
        },
  );
}

async function collect(pages: AsyncIterable<RecordedEvent[]>): Promise<RecordedEvent[][]> {
  const all: RecordedEvent[][] = [];
  for await (const page of pages) all.push(page);
  return all;
}

describe('SqliteEventStore.readAllPages: $all read ahead on a thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-read-ahead-'));
  const file = join(dir, 'events.sqlite');
  let store: SqliteEventStore;
  let all: RecordedEvent[];
  let head: Position;

  beforeAll(async () => {
    store = SqliteEventStore.open(file, { synchronous: 'normal' });
    const written = events(250);
    for (let i = 0; i < written.length; i += 50)
      await store.append(`s-${i}`, written.slice(i, i + 50), 'any');
    all = await store.readAll();
    head = (await store.headPosition())!;
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const range = (after: bigint, upTo: bigint, pageSize: number, types?: string[]) => ({
    path: file,
    after,
    upTo,
    pageSize,
    filter: filterToSql(types ? { eventTypes: types } : undefined),
  });

  it('gives the events readAll gives, in pages of the size asked, decoded the same', async () => {
    expect(all).toHaveLength(250);
    const pages = await collect(readAhead(range(0n, head.commit, 64)));
    expect(pages.map((p) => p.length)).toEqual([64, 64, 64, 58]);
    expect(pages.flat()).toEqual(all);
    // Positions are bigints, times Dates, as on every read path.
    expect(typeof pages[0]![0]!.position.commit).toBe('bigint');
    expect(pages[0]![0]!.recordedAt).toBeInstanceOf(Date);
  });

  it('keeps to the range and the filter', async () => {
    const from = all[99]!.position;
    const to = all[199]!.position;
    const pages = await collect(
      store.readAllPages({
        fromPosition: from,
        toPosition: to,
        pageSize: 30,
        filter: { eventTypes: ['RequestRelayed', 'Small'] },
      }),
    );
    const expected = all.filter(
      (e) =>
        e.position.commit > from.commit &&
        e.position.commit <= to.commit &&
        (e.type === 'RequestRelayed' || e.type === 'Small'),
    );
    expect(expected.length).toBeGreaterThan(30);
    expect(pages.flat()).toEqual(expected);
    expect(pages.every((p) => p.length > 0 && p.length <= 30)).toBe(true);
  });

  it('an exact multiple of the page size ends without an empty page; an empty range gives none', async () => {
    const pages = await collect(readAhead(range(0n, all[99]!.position.commit, 50)));
    expect(pages.map((p) => p.length)).toEqual([50, 50]);
    expect(await collect(readAhead(range(head.commit, head.commit, 50)))).toEqual([]);
  });

  it('cuts a page of large events into texts of a bounded size, and joins them again', async () => {
    // Sizes around and above a text's bound, two-byte characters among them, on a file of its own.
    const bigFile = join(dir, 'large-events.sqlite');
    const big = SqliteEventStore.open(bigFile, { synchronous: 'normal' });
    try {
      const sizes = [1.5, 0.3, 0.3, 0.3, 0.6, 0.6, 0.2, 2, 0.1, 0.1].map((share) =>
        Math.round(share * PAGE_PART_CHARS),
      );
      const written: EventData[] = sizes.map((size, i) => ({
        id: randomUUID(),
        type: 'Large',
        data: { i, text: (i % 2 === 0 ? 'a' : 'é').repeat(size) },
        metadata: {},
      }));
      await big.append('large', written, 'any');
      const stored = await big.readAll();
      const bigHead = (await big.headPosition())!.commit;
      const { port1, port2 } = new MessageChannel();
      // The pages as they cross, seen beside the second reader.
      const crossed: unknown[] = [];
      port2.on('message', (message: { page?: unknown }) => {
        if ('page' in message) crossed.push(message.page);
      });
      const second = collect(pagesFromPort(port2));
      const bigRange = { ...range(0n, bigHead, 4), path: bigFile };
      const first = await collect(readAhead(bigRange, { alsoTo: port1 }));
      expect(first.map((p) => p.length)).toEqual([4, 4, 2]);
      const texts = crossed as string[][];
      expect(
        texts.map((page) => page.map((text) => (JSON.parse(text) as unknown[]).length)),
      ).toEqual([[1, 3], [1, 2, 1], [2]]);
      // Over the bound only when it holds a single event.
      for (const text of texts.flat())
        if (text.length > PAGE_PART_CHARS) expect(JSON.parse(text)).toHaveLength(1);
      expect(first.flat()).toEqual(stored);
      expect((await second).flat()).toEqual(stored);
      expect(stored.map((e) => (e.data as { text: string }).text.length)).toEqual(sizes);
    } finally {
      await big.close();
    }
  });

  it('a caller stopping early ends the thread; the store still reads and writes', async () => {
    let taken = 0;
    for await (const page of readAhead(range(0n, head.commit, 10))) {
      taken += page.length;
      if (taken >= 20) break;
    }
    expect(taken).toBe(20);
    await store.append('after-break', events(1), 'any');
    expect((await store.readAll()).length).toBe(251);
    all = await store.readAll();
    head = (await store.headPosition())!;
  });

  it('hands every page to a second reader too, keeping to the slower one', async () => {
    const { port1, port2 } = new MessageChannel();
    const first: RecordedEvent[][] = [];
    let firstDone = false;
    const reading = (async () => {
      for await (const page of readAhead(range(0n, head.commit, 10), { alsoTo: port1 }))
        first.push(page);
      firstDone = true;
    })();
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    // The thread's start can take a while on a busy machine; then it stops, as nothing comes back.
    for (let waited = 0; first.length === 0 && waited < 200; waited++) await pause();
    for (let i = 0; i < 6; i++) await pause();
    const aheadOfSecond = first.length;
    const second = await collect(pagesFromPort(port2));
    await reading;
    // While the second reader took nothing, the thread stopped at its pages ahead (and the one in
    // the first reader's hands).
    expect(aheadOfSecond).toBeGreaterThan(0);
    expect(aheadOfSecond).toBeLessThanOrEqual(PAGES_AHEAD + 1);
    expect(second.length).toBeGreaterThan(PAGES_AHEAD + 1);
    expect(firstDone).toBe(true);
    expect(second.map((p) => p.length)).toEqual(first.map((p) => p.length));
    expect(second.flat()).toEqual(all);
    expect(first.flat()).toEqual(all);
  });

  it('a second reader stopping early stops the read for the first', async () => {
    const { port1, port2 } = new MessageChannel();
    const second = (async () => {
      for await (const page of pagesFromPort(port2)) if (page.length > 0) break;
    })();
    await expect(
      collect(readAhead(range(0n, head.commit, 10), { alsoTo: port1 })),
    ).rejects.toBeInstanceOf(SecondReaderStoppedError);
    await second;
  });

  it('a store kept in memory refuses a second reader', async () => {
    const memory = SqliteEventStore.open(':memory:');
    try {
      await memory.append('m', events(5), 'no_stream');
      const end = (await memory.headPosition())!;
      const { port1 } = new MessageChannel();
      expect(memory.sharesPages).toBe(false);
      await expect(
        collect(
          memory.readAllPages({
            fromPosition: 'start',
            toPosition: end,
            pageSize: 10,
            alsoTo: port1,
          }),
        ),
      ).rejects.toThrow('no second reader');
      port1.close();
    } finally {
      await memory.close();
    }
  });

  it("fails with the thread's error when the file cannot be read", async () => {
    const missing = { ...range(0n, 10n, 10), path: join(dir, 'missing.sqlite') };
    await expect(collect(readAhead(missing))).rejects.toThrow(/unable to open|directory/i);
  });

  it('reads a store kept in memory on its own connection', async () => {
    const memory = SqliteEventStore.open(':memory:');
    try {
      await memory.append('m', events(25), 'no_stream');
      const end = (await memory.headPosition())!;
      const pages = await collect(
        memory.readAllPages({ fromPosition: 'start', toPosition: end, pageSize: 10 }),
      );
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(pages.flat()).toEqual(await memory.readAll());
    } finally {
      await memory.close();
    }
  });
});
