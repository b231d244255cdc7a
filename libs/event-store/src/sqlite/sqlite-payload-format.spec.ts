import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { EventData, RecordedEvent } from '../event-store.port';
import { DuplicateEventIdError } from '../shared/duplicate-event-id-error';
import { SubscriptionRecorder } from '../testing/subscription-recorder';
import { SqliteEventStore } from './sqlite-event-store';
import { openStoredEventDecoder } from './sqlite-stored-events';

/** A receipt-like event: a few values shared by every request, the rest its own. */
function receipt(i: number, id: string = randomUUID()): EventData {
  const requestId = `req-${i}-${randomUUID()}`;
  return {
    id,
    type: 'RequestRelayed',
    data: { requestId, userId: i % 3, model: 'gpt-4o', endpoint: '/v1/chat/completions', i },
    metadata: { schemaVersion: 1, causationId: requestId, ip: `203.0.113.${i}` },
  };
}

interface RawRow {
  event_id: string | Buffer;
  type: string;
  data: string | Buffer;
  metadata: string | Buffer;
}

describe('SqliteEventStore: the payload format on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-payload-'));
  let file: string;
  const stores: SqliteEventStore[] = [];
  const open = (): SqliteEventStore => {
    const store = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 10 });
    stores.push(store);
    return store;
  };
  const rawRows = (): RawRow[] => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare('SELECT event_id, type, data, metadata FROM events ORDER BY global_position')
        .all() as RawRow[];
    } finally {
      db.close();
    }
  };
  const dictionaryBytes = (): Buffer[] => {
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT bytes FROM payload_dictionaries').all() as Array<{
        bytes: Buffer;
      }>;
      return rows.map((r) => r.bytes);
    } finally {
      db.close();
    }
  };
  /** A row as a store before this format wrote it: text id, JSON text payload. */
  const writeLegacyRow = (streamId: string, id: string, data: unknown): void => {
    const db = new Database(file);
    try {
      db.prepare(
        'INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata, recorded_at) VALUES (?, ?, 0, ?, ?, ?, ?)',
      ).run(id, streamId, 'Legacy', JSON.stringify(data), '{"schemaVersion":1}', Date.now());
      db.prepare('INSERT INTO streams (stream_id, revision) VALUES (?, 0)').run(streamId);
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back compressed rows identically on every read path, live or caught up', async () => {
    const store = open();
    const live = new SubscriptionRecorder();
    const subscription = store.subscribeToAll({ fromPosition: 'end' }, live.handlers);
    const receipts = Array.from({ length: 20 }, (_, i) => receipt(i));
    const others: EventData[] = [
      // Too small for compression to pay: stays text.
      { id: 'not-a-uuid', type: 'Small', data: 7, metadata: {} },
      {
        id: randomUUID(),
        type: 'Other',
        data: {
          text: 'x'.repeat(300),
          // Larger than zlib's output chunk: inflated in several.
          ids: Array.from({ length: 500 }, () => randomUUID()),
        },
        metadata: { n: 1 },
      },
    ];
    try {
      await live.waitFor(() => live.caughtUpCalls === 1, 'caught up');
      await store.append('usage-a', receipts.slice(0, 12), 'any');
      await store.append('usage-b', receipts.slice(12), 'any');
      await store.append('other-1', others, 'no_stream');
      await live.waitFor(() => live.events.length === 22, 'the live events');

      const all = await store.readAll();
      expect(all).toEqual(live.events);
      expect(all.map((e) => [e.id, e.data, e.metadata])).toEqual(
        [...receipts, ...others].map((e) => [e.id, e.data, e.metadata]),
      );
      const paged: RecordedEvent[] = [];
      const toPosition = all[all.length - 1]!.position;
      for await (const page of store.readAllPages({
        fromPosition: 'start',
        toPosition,
        pageSize: 5,
      }))
        paged.push(...page);
      expect(paged).toEqual(all);
      const caughtUp = new SubscriptionRecorder();
      const replay = store.subscribeToAll({ fromPosition: 'start' }, caughtUp.handlers);
      await caughtUp.waitFor(() => caughtUp.caughtUpCalls === 1, 'the catch-up');
      await replay.stop();
      expect(caughtUp.events).toEqual(all);

      const forwards = await store.readStream('usage-a');
      expect(await store.readStream('usage-a', { direction: 'backwards' })).toEqual(
        [...forwards].reverse(),
      );
      expect(forwards).toEqual(all.slice(0, 12));
      const byType = (type: string) => all.filter((e: RecordedEvent) => e.type === type);
      expect(await store.readAll({ filter: { eventTypes: ['Other', 'Small'] } })).toEqual([
        ...byType('Small'),
        ...byType('Other'),
      ]);
      expect(await store.readAll({ filter: { streamPrefixes: ['usage-b'] } })).toEqual(
        all.slice(12, 20),
      );
    } finally {
      await subscription.stop();
    }
    const rows = rawRows();
    expect(rows.filter((r) => Buffer.isBuffer(r.data)).map((r) => r.type)).toEqual([
      ...receipts.map(() => 'RequestRelayed'),
      'Other',
    ]);
    expect(rows.map((r) => (Buffer.isBuffer(r.event_id) ? r.event_id.length : r.event_id))).toEqual(
      [...receipts.map(() => 16), 'not-a-uuid', 16],
    );
  });

  it('reads rows written as text before the format, beside new ones', async () => {
    open();
    await stores[0]!.close();
    const legacyId = randomUUID();
    writeLegacyRow('legacy-1', legacyId, { kept: 'as written' });
    const store = open();
    const added = receipt(1);
    await store.append('legacy-1', [added], 0);
    const stream = await store.readStream('legacy-1');
    expect(stream.map((e) => [e.id, e.type, e.data, e.metadata])).toEqual([
      [legacyId, 'Legacy', { kept: 'as written' }, { schemaVersion: 1 }],
      [added.id, 'RequestRelayed', added.data, added.metadata],
    ]);
    // The rebuild's read, on its own thread (a file and more than one core), reads both forms too.
    const paged: RecordedEvent[] = [];
    const toPosition = (await store.headPosition())!;
    for await (const page of store.readAllPages({ fromPosition: 'start', toPosition, pageSize: 1 }))
      paged.push(...page);
    expect(paged).toEqual(stream);
    const db = new Database(file, { readonly: true });
    try {
      const decoder = openStoredEventDecoder(db);
      expect(rawRows().map((r) => [decoder.eventId(r), JSON.parse(decoder.texts(r).data)])).toEqual(
        [
          [legacyId, { kept: 'as written' }],
          [added.id, added.data],
        ],
      );
    } finally {
      db.close();
    }
  });

  it('refuses a repeated id, stored as bytes or as text', async () => {
    open();
    await stores[0]!.close();
    const legacyId = randomUUID();
    writeLegacyRow('legacy-1', legacyId, {});
    const store = open();
    const again = receipt(1);
    await store.append('s-1', [again], 'no_stream');
    for (const id of [again.id, legacyId]) {
      await expect(store.append('s-2', [receipt(2, id)], 'any')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
      // A retry whose expected revision no longer holds is a duplicate too, not a conflict.
      await expect(store.append('s-1', [receipt(3, id)], 'no_stream')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
    }
    await store.append('s-3', [{ id: 'plain', type: 'T', data: {}, metadata: {} }], 'any');
    await expect(
      store.append('s-3', [{ id: 'plain', type: 'T', data: {}, metadata: {} }], 'any'),
    ).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readAll()).map((e) => e.id)).toEqual([legacyId, again.id, 'plain']);
  });

  it("reads another process's rows compressed with a dictionary it has not seen yet", async () => {
    const a = open();
    const b = open();
    expect(await b.readAll()).toEqual([]);
    const written = Array.from({ length: 6 }, (_, i) => receipt(i));
    await a.append('usage-a', written, 'any');
    expect((await b.readAll()).map((e) => e.data)).toEqual(written.map((e) => e.data));
    // b's own writer builds its own dictionary for the type; both read both.
    const more = Array.from({ length: 6 }, (_, i) => receipt(10 + i));
    await b.append('usage-b', more, 'any');
    expect((await a.readAll()).map((e) => e.data)).toEqual(
      [...written, ...more].map((e) => e.data),
    );
  });

  it('keeps in a dictionary no value only one event holds', async () => {
    const store = open();
    const events = Array.from({ length: 8 }, (_, i) => receipt(i));
    const secret = 'only-in-this-one-event';
    (events[3]!.data as Record<string, unknown>)['note'] = secret;
    await store.append('usage-a', events, 'any');
    const [dictionary, ...rest] = dictionaryBytes();
    expect(rest).toEqual([]);
    const text = dictionary!.toString();
    expect(text).not.toContain(secret);
    for (const e of events) expect(text).not.toContain((e.data as { requestId: string }).requestId);
    // What most events share stays, with every key.
    expect(text).toContain('"endpoint":"/v1/chat/completions"');
    expect(text).toContain('"note":""');
    expect(text).toContain('"ip":"203.0.113.');
    // A type seen once gets its keys alone.
    await store.append(
      't-1',
      [{ id: randomUUID(), type: 'Once', data: { who: secret }, metadata: {} }],
      'any',
    );
    expect(dictionaryBytes()[1]!.toString()).toBe('{}\n{"who":""}');
  });

  it('builds a better dictionary once a batch has twice the samples, then keeps it', async () => {
    const store = open();
    await store.append('usage-a', [receipt(0)], 'any');
    await store.append('usage-a', [receipt(1), receipt(2)], 'any');
    await store.append(
      'usage-a',
      Array.from({ length: 8 }, (_, i) => receipt(3 + i)),
      'any',
    );
    await store.append(
      'usage-a',
      Array.from({ length: 8 }, (_, i) => receipt(11 + i)),
      'any',
    );
    expect(dictionaryBytes()).toHaveLength(3);
    expect((await store.readAll()).map((e) => e.data)).toEqual(
      Array.from({ length: 19 }, (_, i) => expect.objectContaining({ i })),
    );
  });
});
