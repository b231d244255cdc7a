import { SqliteEventStore, type EventData, type EventStore } from '@tollgate/event-store';
import { eventBytes } from '@tollgate/event-store';
import { MAX_APPEND_BYTES } from '../infrastructure/append-chunks';
import { derivedId } from '../infrastructure/derived-id';
import { RecentIdsEventStore } from '../infrastructure/testing/recent-ids-event-store';
import { ImportAppends, importAppendKey } from './import-appends';

const FINGERPRINT = 'f'.repeat(32);
const STREAM = 'imported-logs';

/** Imported log events, `bytes` of content each. */
function logs(count: number, bytes = 16, from = 1): EventData[] {
  return Array.from({ length: count }, (_, i) => ({
    id: derivedId(`import:${FINGERPRINT}:logs:${from + i}:${STREAM}`),
    type: 'LogImported',
    data: { rowId: from + i, content: 'c'.repeat(bytes) },
    metadata: { import: { table: 'logs', rowId: from + i } },
  }));
}

const idsOf = async (store: EventStore) => (await store.readStream(STREAM)).map((e) => e.id);

describe('ImportAppends', () => {
  it('sends a batch over the size cap as several appends, none over it, each with its key', async () => {
    const store = new RecentIdsEventStore(); // refuses an append over 1 MiB, as the server does
    const events = logs(24, MAX_APPEND_BYTES / 8);
    const sent: number[] = [];
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation((stream, batch, expected, options) => {
      sent.push(batch.reduce((sum, e) => sum + eventBytes(e), 0));
      return append(stream, batch, expected, options);
    });

    const revision = await new ImportAppends(store, FINGERPRINT).appendAll(STREAM, events, null);

    expect(revision).toBe(events.length - 1);
    expect(await idsOf(store)).toEqual(events.map((e) => e.id));
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...sent)).toBeLessThanOrEqual(MAX_APPEND_BYTES);
    const keys = store.calls.map((c) => c.options?.idempotencyKey);
    expect(new Set(keys).size).toBe(store.calls.length);
    expect(keys[0]).toBe(importAppendKey(FINGERPRINT, events[0]!.id));
  });

  it('sends the batches issued back to back on one stream one at a time, in order; other streams in parallel', async () => {
    const store = new RecentIdsEventStore();
    const inFlight = new Map<string, number>();
    const peaks = new Map<string, number>();
    let overall = 0;
    let overallPeak = 0;
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation(async (stream, batch, expected, options) => {
      inFlight.set(stream, (inFlight.get(stream) ?? 0) + 1);
      peaks.set(stream, Math.max(peaks.get(stream) ?? 0, inFlight.get(stream)!));
      overallPeak = Math.max(overallPeak, (overall += 1));
      // A later batch would overtake an earlier one here if both were sent at once.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight.set(stream, inFlight.get(stream)! - 1);
      overall -= 1;
      return append(stream, batch, expected, options);
    });
    const appends = new ImportAppends(store, FINGERPRINT);
    const [first, second, third] = [logs(3, 16, 1), logs(3, 16, 4), logs(3, 16, 7)];

    // Revisions known ahead, as the logs import computes them.
    await Promise.all([
      appends.appendAll(STREAM, first, null),
      appends.appendAll(STREAM, second, 2),
      appends.appendAll(STREAM, third, 5),
      appends.appendAll('other', logs(2, 16, 100), null),
    ]);

    expect(await idsOf(store)).toEqual([...first, ...second, ...third].map((e) => e.id));
    expect(peaks.get(STREAM)).toBe(1);
    expect(overallPeak).toBe(2);
  });

  it('a re-run refuses the batches an earlier run wrote: nothing is written twice', async () => {
    const store = new RecentIdsEventStore();
    const events = logs(10);
    await new ImportAppends(store, FINGERPRINT).appendAll(STREAM, events, null);
    await store.append('other', logs(1, 16, 500), 'no_stream'); // time passes
    const before = store.calls.length;

    const revision = await new ImportAppends(store, FINGERPRINT).appendAll(STREAM, events, null);

    expect(revision).toBe(events.length - 1);
    expect(await idsOf(store)).toEqual(events.map((e) => e.id));
    expect(store.calls[before]!.options?.idempotencyKey).toBe(
      importAppendKey(FINGERPRINT, events[0]!.id),
    );
  });

  const engines: Array<[string, () => EventStore]> = [
    ['an engine that records keys and forgets old ids', () => new RecentIdsEventStore()],
    ['SQLite (ids unique store-wide, no keys)', () => SqliteEventStore.open(':memory:')],
  ];

  it.each(engines)(
    'on %s, a batch an earlier run wrote only a part of is completed on a re-run, in order',
    async (_, open) => {
      const store = open();
      try {
        const events = logs(8);
        // The earlier run: its append was split into parts and it died after the first one.
        await store.append(STREAM, events.slice(0, 3), 'no_stream', {
          idempotencyKey: importAppendKey(FINGERPRINT, events[0]!.id),
        });

        const revision = await new ImportAppends(store, FINGERPRINT).appendAll(
          STREAM,
          events,
          null,
        );

        expect(revision).toBe(events.length - 1);
        expect(await idsOf(store)).toEqual(events.map((e) => e.id));
      } finally {
        await store.close();
      }
    },
  );
});
