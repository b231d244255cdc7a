import { randomUUID } from 'node:crypto';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
} from '../event-store.port';
import { SubscriptionRecorder, sleep } from './subscription-recorder';

export interface EventStoreContractOptions {
  /** makeStore() returns an empty store (SQLite); a shared real server is never empty. */
  readonly startsEmpty?: boolean;
  /** Per-test timeout in ms; a real server over the network needs more. Default 10 000. */
  readonly timeoutMs?: number;
}

/**
 * An engine's answer to "are event ids unique across the store?": SQLite's are (a repeated id is
 * refused, however old); EventStoreDB deduplicates only a repeat at the same expected revision or,
 * with `any`, ids still in its recent-commits cache. Appends that may be repeated later carry an
 * idempotency key, which both honour. A store without the flag is taken as not unique.
 */
function hasUniqueEventIds(store: EventStore): boolean {
  return (store as Partial<{ readonly uniqueEventIds: boolean }>).uniqueEventIds === true;
}

/** EventStoreDB's soft delete: a deleted stream's events stay in `$all` until a scavenge. */
function deletedStreamsLeaveAll(store: EventStore): boolean {
  return (
    (store as Partial<{ readonly deletedStreamsLeaveAll: boolean }>).deletedStreamsLeaveAll === true
  );
}

/**
 * The EventStore contract, shared by every adapter. Each test uses its own stream category, so the
 * suite also runs against a shared server that holds other data, and filters by that category.
 */
export function eventStoreContract(
  makeStore: () => Promise<EventStore>,
  options: EventStoreContractOptions = {},
): void {
  const timeout = options.timeoutMs ?? 10_000;
  let store: EventStore;
  let category: string;

  beforeEach(async () => {
    store = await makeStore();
    category = `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  });
  afterEach(async () => {
    await store.close();
  });

  const stream = (id: string): string => `${category}-${id}`;
  const mine = (): { streamPrefixes: string[] } => ({ streamPrefixes: [`${category}-`] });
  const isMine = (e: RecordedEvent): boolean => e.streamId.startsWith(`${category}-`);

  describe('append and expected revisions', () => {
    it(
      'writes 0-based revisions to a new stream with no_stream',
      async () => {
        const result = await store.append(
          stream('a'),
          [event('A'), event('B'), event('C')],
          'no_stream',
        );
        expect(result.nextExpectedRevision).toBe(2);
        const read = await store.readStream(stream('a'));
        expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(read.map((e) => e.type)).toEqual(['A', 'B', 'C']);
        expect(await store.streamRevision(stream('a'))).toBe(2);
        expect(comparePositions(read[2]!.position, result.position)).toBe(0);
      },
      timeout,
    );

    it(
      'rejects no_stream on an existing stream',
      async () => {
        await store.append(stream('a'), [event('A')], 'no_stream');
        await expectWrongRevision(
          store.append(stream('a'), [event('B')], 'no_stream'),
          stream('a'),
          'no_stream',
          0,
        );
      },
      timeout,
    );

    it(
      'accepts any whether or not the stream exists',
      async () => {
        expect((await store.append(stream('a'), [event('A')], 'any')).nextExpectedRevision).toBe(0);
        expect(
          (await store.append(stream('a'), [event('B'), event('C')], 'any')).nextExpectedRevision,
        ).toBe(2);
      },
      timeout,
    );

    it(
      'rejects stream_exists on a missing stream and accepts it on an existing one',
      async () => {
        await expectWrongRevision(
          store.append(stream('a'), [event('A')], 'stream_exists'),
          stream('a'),
          'stream_exists',
          null,
        );
        await store.append(stream('a'), [event('A')], 'no_stream');
        expect(
          (await store.append(stream('a'), [event('B')], 'stream_exists')).nextExpectedRevision,
        ).toBe(1);
      },
      timeout,
    );

    it(
      'requires an exact revision to equal the last revision',
      async () => {
        await expectWrongRevision(store.append(stream('a'), [event('A')], 5), stream('a'), 5, null);
        await expectWrongRevision(store.append(stream('a'), [event('A')], 0), stream('a'), 0, null);
        await store.append(stream('a'), [event('A'), event('B')], 'no_stream');
        await expectWrongRevision(store.append(stream('a'), [event('C')], 0), stream('a'), 0, 1);
        await expectWrongRevision(store.append(stream('a'), [event('C')], 2), stream('a'), 2, 1);
        expect((await store.append(stream('a'), [event('C')], 1)).nextExpectedRevision).toBe(2);
      },
      timeout,
    );

    it(
      'chains appends through nextExpectedRevision',
      async () => {
        let expected: ExpectedRevision = 'no_stream';
        for (let i = 0; i < 5; i += 1) {
          const result = await store.append(
            stream('a'),
            [event(`E${i}`), event(`F${i}`)],
            expected,
          );
          expect(result.nextExpectedRevision).toBe(2 * i + 1);
          expected = result.nextExpectedRevision;
        }
        expect(await store.streamRevision(stream('a'))).toBe(9);
      },
      timeout,
    );

    it(
      'writes nothing when the expectation fails',
      async () => {
        await store.append(stream('a'), [event('A')], 'no_stream');
        await expect(
          store.append(stream('a'), [event('B'), event('C')], 'no_stream'),
        ).rejects.toThrow(WrongExpectedRevisionError);
        expect((await store.readStream(stream('a'))).map((e) => e.type)).toEqual(['A']);
      },
      timeout,
    );

    it(
      'round-trips id, type, data, metadata, stream and time',
      async () => {
        const data = {
          name: 'Ünïcode ✓',
          n: 1.5,
          nested: { list: [1, 'two', null, true] },
          empty: {},
        };
        const metadata = {
          schemaVersion: 1,
          actor: { kind: 'user', id: 'u1', role: 'admin' },
          correlationId: 'r1',
        };
        const written = { id: randomUUID(), type: 'ThingHappened', data, metadata };
        const before = Date.now();
        await store.append(stream('a'), [written], 'no_stream');
        const [read] = await store.readStream(stream('a'));
        expect(read).toMatchObject({
          id: written.id,
          type: 'ThingHappened',
          data,
          metadata,
          streamId: stream('a'),
          revision: 0,
        });
        expect(read!.recordedAt).toBeInstanceOf(Date);
        // Server clocks drift a little from ours.
        expect(Math.abs(read!.recordedAt.getTime() - before)).toBeLessThan(60_000);
        expect(typeof read!.position.commit).toBe('bigint');
        expect(typeof read!.position.prepare).toBe('bigint');
      },
      timeout,
    );

    it(
      'rejects an append without events',
      async () => {
        await expect(store.append(stream('a'), [], 'any')).rejects.toThrow(/at least one event/);
      },
      timeout,
    );
  });

  describe('duplicate event ids (a retried append)', () => {
    const isDuplicate = (error: unknown): boolean =>
      (error as Error | undefined)?.name === 'DuplicateEventIdError';
    const settle = (append: Promise<unknown>): Promise<unknown> =>
      append.then(
        (result) => result,
        (e: unknown) => e,
      );
    /** Refused as a duplicate, or (EventStoreDB) answered the first write's revision. */
    const isRepeatOf = (outcome: unknown, first: { nextExpectedRevision: number }): boolean =>
      isDuplicate(outcome) ||
      (outcome as { nextExpectedRevision?: unknown }).nextExpectedRevision ===
        first.nextExpectedRevision;

    it(
      'writes the same ids sent again with the same expected revision once',
      async () => {
        const first = [event('A'), event('B')];
        const written = await store.append(stream('a'), first, 'no_stream');
        expect(
          isRepeatOf(await settle(store.append(stream('a'), first, 'no_stream')), written),
        ).toBe(true);
        const next = [event('C')];
        const again = await store.append(stream('a'), next, 1);
        expect(isRepeatOf(await settle(store.append(stream('a'), next, 1)), again)).toBe(true);
        expect((await store.readStream(stream('a'))).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      },
      timeout,
    );

    it(
      "writes the same ids sent again at once with 'any' once",
      async () => {
        const receipt = event('Receipt');
        const written = await store.append(stream('u'), [receipt], 'any');
        expect(isRepeatOf(await settle(store.append(stream('u'), [receipt], 'any')), written)).toBe(
          true,
        );
        expect((await store.readStream(stream('u'))).map((e) => e.type)).toEqual(['Receipt']);
      },
      timeout,
    );

    it(
      'refuses a keyed append repeated after 200 other events in the stream, written once',
      async () => {
        const batch = [event('Imported1'), event('Imported2')];
        const idempotencyKey = `import-${category}`;
        await store.append(stream('k'), batch, 'any', { idempotencyKey });
        for (let i = 0; i < 4; i += 1) {
          await store.append(
            stream('k'),
            Array.from({ length: 50 }, (_, j) => event(`Other${i * 50 + j}`)),
            'any',
          );
        }
        const repeat = await settle(store.append(stream('k'), batch, 'any', { idempotencyKey }));
        expect(isDuplicate(repeat)).toBe(true);
        const ids = (await store.readStream(stream('k'))).map((e) => e.id);
        expect(ids).toHaveLength(202);
        expect(ids.filter((id) => id === batch[0]!.id)).toHaveLength(1);
      },
      timeout,
    );

    it(
      'lets one of two concurrent keyed appends with one key succeed, the other a duplicate',
      async () => {
        const batch = [event('Charged')];
        const idempotencyKey = `charge-${category}`;
        const outcomes = await Promise.all([
          settle(store.append(stream('c'), batch, 'any', { idempotencyKey })),
          settle(store.append(stream('c'), batch, 'any', { idempotencyKey })),
        ]);
        expect(outcomes.filter(isDuplicate)).toHaveLength(1);
        expect(outcomes.filter((o) => !(o instanceof Error))).toHaveLength(1);
        expect((await store.readStream(stream('c'))).map((e) => e.id)).toEqual([batch[0]!.id]);
      },
      timeout,
    );

    it(
      'refuses repeated ids anywhere when the engine holds them unique, else writes them again',
      async () => {
        const first = [event('A')];
        const { nextExpectedRevision } = await store.append(stream('a'), first, 'no_stream');
        const later = await settle(store.append(stream('a'), first, nextExpectedRevision));
        if (hasUniqueEventIds(store)) {
          expect(isDuplicate(later)).toBe(true);
          expect(isDuplicate(await settle(store.append(stream('b'), [...first], 'any')))).toBe(
            true,
          );
          const mixed = store.append(stream('a'), [event('Fresh'), ...first], 'any');
          expect(isDuplicate(await settle(mixed))).toBe(true);
          expect(await store.readStream(stream('b'))).toEqual([]);
          expect(await store.streamRevision(stream('a'))).toBe(0);
        } else {
          // The server deduplicates only at the same expected revision: a later one writes again.
          expect(later).toMatchObject({ nextExpectedRevision: 1 });
          expect((await store.readStream(stream('a'))).map((e) => e.id)).toEqual([
            first[0]!.id,
            first[0]!.id,
          ]);
        }
      },
      timeout,
    );
  });

  describe('readStream', () => {
    it(
      'reads a missing stream as empty with a null revision',
      async () => {
        expect(await store.readStream(stream('missing'))).toEqual([]);
        expect(await store.readStream(stream('missing'), { direction: 'backwards' })).toEqual([]);
        expect(await store.streamRevision(stream('missing'))).toBeNull();
      },
      timeout,
    );

    it(
      'reads forwards from a revision, bounded by maxCount',
      async () => {
        await store.append(
          stream('a'),
          ['E0', 'E1', 'E2', 'E3', 'E4'].map((t) => event(t)),
          'no_stream',
        );
        const types = async (o: Parameters<EventStore['readStream']>[1]): Promise<string[]> =>
          (await store.readStream(stream('a'), o)).map((e) => e.type);
        expect(await types({})).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
        expect(await types({ fromRevision: 2 })).toEqual(['E2', 'E3', 'E4']);
        expect(await types({ fromRevision: 1, maxCount: 2 })).toEqual(['E1', 'E2']);
        expect(await types({ fromRevision: 'start', maxCount: 1 })).toEqual(['E0']);
        expect(await types({ fromRevision: 9 })).toEqual([]);
      },
      timeout,
    );

    it(
      'reads backwards from the end or from a revision',
      async () => {
        await store.append(
          stream('a'),
          ['E0', 'E1', 'E2', 'E3', 'E4'].map((t) => event(t)),
          'no_stream',
        );
        const types = async (o: Parameters<EventStore['readStream']>[1]): Promise<string[]> =>
          (await store.readStream(stream('a'), { direction: 'backwards', ...o })).map(
            (e) => e.type,
          );
        expect(await types({})).toEqual(['E4', 'E3', 'E2', 'E1', 'E0']);
        expect(await types({ maxCount: 1 })).toEqual(['E4']);
        expect(await types({ fromRevision: 'end', maxCount: 2 })).toEqual(['E4', 'E3']);
        expect(await types({ fromRevision: 2 })).toEqual(['E2', 'E1', 'E0']);
        expect(await types({ fromRevision: 3, maxCount: 2 })).toEqual(['E3', 'E2']);
      },
      timeout,
    );
  });

  describe('deleteStream and listStreams', () => {
    it(
      'removes one stream: it reads as missing, $all skips it, other streams are untouched',
      async () => {
        await store.append(stream('gone'), [event('G0'), event('G1')], 'no_stream');
        await store.append(stream('kept'), [event('K0')], 'no_stream');
        await store.deleteStream(stream('gone'));
        expect(await store.readStream(stream('gone'))).toEqual([]);
        expect(await store.readStream(stream('gone'), { direction: 'backwards' })).toEqual([]);
        expect(await store.streamRevision(stream('gone'))).toBeNull();
        expect((await store.readStream(stream('kept'))).map((e) => e.type)).toEqual(['K0']);
        const all = await store.readAll({ filter: mine() });
        // EventStoreDB's soft delete leaves the events in $all until its next scavenge.
        const skipsAll = !deletedStreamsLeaveAll(store);
        if (skipsAll) expect(all.map((e) => e.type)).toEqual(['K0']);
        else expect(all.map((e) => e.type)).toEqual(['G0', 'G1', 'K0']);
        // Deleting a missing stream (or the same one again) does nothing.
        await store.deleteStream(stream('gone'));
        await store.deleteStream(stream('never'));
        expect(await store.streamRevision(stream('kept'))).toBe(0);
      },
      timeout,
    );

    it(
      'lists the existing streams of a prefix, not the deleted ones',
      async () => {
        await store.append(stream('u-1'), [event('A')], 'no_stream');
        await store.append(stream('u-2'), [event('A')], 'no_stream');
        await store.append(stream('u-3'), [event('A')], 'no_stream');
        await store.append(stream('v-1'), [event('A')], 'no_stream');
        await store.deleteStream(stream('u-2'));
        const listed = await store.listStreams({ prefix: stream('u-') });
        expect([...listed].sort()).toEqual([stream('u-1'), stream('u-3')]);
        expect(await store.listStreams({ prefix: stream('w-') })).toEqual([]);
      },
      timeout,
    );
  });

  describe('readAll', () => {
    it(
      'returns events across streams in append order with increasing positions',
      async () => {
        const positions: Position[] = [];
        for (const [id, type] of [
          ['a', 'A1'],
          ['b', 'B1'],
          ['a', 'A2'],
          ['c', 'C1'],
          ['b', 'B2'],
        ] as const) {
          positions.push((await store.append(stream(id), [event(type)], 'any')).position);
        }
        const all = await store.readAll({ filter: mine() });
        expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'A2', 'C1', 'B2']);
        expect(all.map((e) => e.position)).toEqual(positions);
        expectIncreasing(all.map((e) => e.position));
      },
      timeout,
    );

    it(
      'reads strictly after fromPosition, bounded by maxCount',
      async () => {
        const results = [];
        for (let i = 0; i < 5; i += 1)
          results.push(await store.append(stream(`s${i % 2}`), [event(`E${i}`)], 'any'));
        const after1 = await store.readAll({ fromPosition: results[1]!.position, filter: mine() });
        expect(after1.map((e) => e.type)).toEqual(['E2', 'E3', 'E4']);
        const two = await store.readAll({
          fromPosition: results[0]!.position,
          maxCount: 2,
          filter: mine(),
        });
        expect(two.map((e) => e.type)).toEqual(['E1', 'E2']);
        expect(await store.readAll({ fromPosition: results[4]!.position, filter: mine() })).toEqual(
          [],
        );
        const fromStart = await store.readAll({
          fromPosition: 'start',
          filter: mine(),
          maxCount: 3,
        });
        expect(fromStart.map((e) => e.type)).toEqual(['E0', 'E1', 'E2']);
      },
      timeout,
    );

    it(
      'filters by event type, by stream prefix, and by both',
      async () => {
        await store.append(stream('a'), [event('Kept'), event('Dropped')], 'any');
        await store.append(`${category}x-b`, [event('Kept')], 'any');
        await store.append(stream('c'), [event('Other'), event('Kept')], 'any');
        const byType = await store.readAll({
          filter: { eventTypes: ['Kept'], streamPrefixes: [category] },
        });
        expect(byType.map((e) => e.streamId)).toEqual([stream('a'), `${category}x-b`, stream('c')]);
        const byPrefix = await store.readAll({
          filter: { streamPrefixes: [stream('a'), stream('c')] },
        });
        expect(byPrefix.map((e) => e.type)).toEqual(['Kept', 'Dropped', 'Other', 'Kept']);
        const typesOnly = await store.readAll({ filter: { eventTypes: ['Other', 'Dropped'] } });
        expect(typesOnly.filter(isMine).map((e) => e.type)).toEqual(['Dropped', 'Other']);
        // A type filter is exact, not a prefix.
        expect(
          (await store.readAll({ filter: { eventTypes: ['Kep'], streamPrefixes: [category] } }))
            .length,
        ).toBe(0);
      },
      timeout,
    );

    it(
      'reports the head position',
      async () => {
        if (options.startsEmpty) expect(await store.headPosition()).toBeNull();
        await store.append(stream('a'), [event('A')], 'any');
        const { position } = await store.append(stream('b'), [event('B'), event('C')], 'any');
        const head = await store.headPosition();
        expect(head).not.toBeNull();
        if (options.startsEmpty) expect(head).toEqual(position);
        else expect(comparePositions(head!, position)).toBeGreaterThanOrEqual(0);
      },
      timeout,
    );
  });

  describe('subscribeToAll', () => {
    it(
      'catches up from the start, then goes live, without gaps or duplicates',
      async () => {
        for (let i = 0; i < 10; i += 1)
          await store.append(stream(`s${i % 3}`), [event(`Old${i}`)], 'any');
        const duringCatchUp: Promise<unknown>[] = [];
        const recorder = new SubscriptionRecorder(isMine, async (_batch, r) => {
          // Appends racing the catch-up phase must neither be lost nor delivered twice.
          if (r.batches.length < 3) {
            duringCatchUp.push(
              store.append(stream('race'), [event(`Race${r.batches.length}`)], 'any'),
            );
          }
          await sleep(2);
        });
        const subscription = store.subscribeToAll(
          { fromPosition: 'start', filter: mine(), maxBatchSize: 3 },
          recorder.handlers,
        );
        try {
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'catch-up', timeout);
          await Promise.all(duringCatchUp);
          expect(recorder.deliveredAtCaughtUp).toBeGreaterThanOrEqual(10);
          for (let i = 0; i < 5; i += 1)
            await store.append(stream(`s${i % 3}`), [event(`New${i}`)], 'any');
          const total = 10 + duringCatchUp.length + 5;
          await recorder.waitFor(() => recorder.events.length >= total, `${total} events`, timeout);
          await sleep(50);
          const expected = await store.readAll({ filter: mine() });
          expect(recorder.ids).toEqual(expected.map((e) => e.id));
          expect(new Set(recorder.ids).size).toBe(total);
          expect(recorder.caughtUpCalls).toBe(1);
          expect(Math.max(...recorder.rawBatchSizes)).toBeLessThanOrEqual(3);
          expect(recorder.errors).toEqual([]);
        } finally {
          await subscription.stop();
        }
      },
      timeout,
    );

    it(
      'delivers every event in $all order without a filter',
      async () => {
        await store.append(stream('a'), [event('A0')], 'any');
        const recorder = new SubscriptionRecorder(isMine);
        const subscription = store.subscribeToAll({ fromPosition: 'start' }, recorder.handlers);
        try {
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'catch-up', timeout);
          await store.append(stream('b'), [event('B0'), event('B1')], 'any');
          await store.append(stream('a'), [event('A1')], 'any');
          await recorder.waitFor(() => recorder.events.length >= 4, '4 events', timeout);
          expect(recorder.events.map((e) => e.type)).toEqual(['A0', 'B0', 'B1', 'A1']);
          expect(recorder.events.map((e) => e.revision)).toEqual([0, 0, 1, 1]);
          expectIncreasing(recorder.events.map((e) => e.position));
          expect(
            recorder.events.some((e) => e.type.startsWith('$') || e.streamId.startsWith('$')),
          ).toBe(false);
        } finally {
          await subscription.stop();
        }
      },
      timeout,
    );

    it(
      "from 'end' delivers only events appended after subscribing",
      async () => {
        await store.append(stream('a'), [event('Before')], 'any');
        const recorder = new SubscriptionRecorder(isMine);
        const subscription = store.subscribeToAll(
          { fromPosition: 'end', filter: mine() },
          recorder.handlers,
        );
        try {
          // onCaughtUp is how a caller knows the subscription is live.
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live', timeout);
          expect(recorder.deliveredAtCaughtUp).toBe(0);
          await store.append(stream('a'), [event('After1')], 'any');
          await store.append(stream('b'), [event('After2')], 'any');
          await recorder.waitFor(() => recorder.events.length >= 2, '2 events', timeout);
          await sleep(50);
          expect(recorder.events.map((e) => e.type)).toEqual(['After1', 'After2']);
          expect(recorder.caughtUpCalls).toBe(1);
        } finally {
          await subscription.stop();
        }
      },
      timeout,
    );

    it(
      'from a position delivers strictly after it',
      async () => {
        const first = await store.append(stream('a'), [event('E0'), event('E1')], 'any');
        await store.append(stream('b'), [event('E2')], 'any');
        const recorder = new SubscriptionRecorder(isMine);
        const subscription = store.subscribeToAll(
          { fromPosition: first.position, filter: mine() },
          recorder.handlers,
        );
        try {
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'catch-up', timeout);
          await store.append(stream('a'), [event('E3')], 'any');
          await recorder.waitFor(() => recorder.events.length >= 2, '2 events', timeout);
          await sleep(50);
          expect(recorder.events.map((e) => e.type)).toEqual(['E2', 'E3']);
        } finally {
          await subscription.stop();
        }
      },
      timeout,
    );

    it(
      'applies event type and stream prefix filters in catch-up and live',
      async () => {
        await store.append(stream('keep'), [event('Wanted'), event('Unwanted')], 'any');
        await store.append(stream('skip'), [event('Wanted')], 'any');
        const byType = new SubscriptionRecorder(isMine);
        const byPrefix = new SubscriptionRecorder();
        const subs = [
          store.subscribeToAll(
            { fromPosition: 'start', filter: { eventTypes: ['Wanted'] } },
            byType.handlers,
          ),
          store.subscribeToAll(
            { fromPosition: 'start', filter: { streamPrefixes: [stream('keep')] } },
            byPrefix.handlers,
          ),
        ];
        try {
          await byType.waitFor(() => byType.caughtUpCalls > 0, 'type catch-up', timeout);
          await byPrefix.waitFor(() => byPrefix.caughtUpCalls > 0, 'prefix catch-up', timeout);
          await store.append(stream('skip'), [event('Unwanted'), event('Wanted')], 'any');
          await store.append(stream('keep'), [event('Unwanted')], 'any');
          await byType.waitFor(() => byType.events.length >= 3, '3 typed events', timeout);
          await byPrefix.waitFor(() => byPrefix.events.length >= 3, '3 prefixed events', timeout);
          await sleep(50);
          expect(byType.events.map((e) => `${e.streamId}:${e.type}`)).toEqual([
            `${stream('keep')}:Wanted`,
            `${stream('skip')}:Wanted`,
            `${stream('skip')}:Wanted`,
          ]);
          expect(byPrefix.events.map((e) => e.type)).toEqual(['Wanted', 'Unwanted', 'Unwanted']);
        } finally {
          await Promise.all(subs.map((s) => s.stop()));
        }
      },
      timeout,
    );

    it(
      'batches events that arrive while the handler is busy, up to maxBatchSize',
      async () => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const recorder = new SubscriptionRecorder(isMine, async (_batch, r) => {
          if (r.batches.length === 0) await gate;
        });
        const subscription = store.subscribeToAll(
          { fromPosition: 'end', filter: mine(), maxBatchSize: 4 },
          recorder.handlers,
        );
        try {
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live', timeout);
          await store.append(stream('a'), [event('First')], 'any');
          await sleep(50);
          for (let i = 0; i < 10; i += 1)
            await store.append(stream('a'), [event(`Queued${i}`)], 'any');
          await sleep(100);
          release();
          await recorder.waitFor(() => recorder.events.length >= 11, '11 events', timeout);
          expect(recorder.events.map((e) => e.type)).toEqual([
            'First',
            ...Array.from({ length: 10 }, (_, i) => `Queued${i}`),
          ]);
          expect(Math.max(...recorder.rawBatchSizes)).toBeLessThanOrEqual(4);
          expect(recorder.batches.length).toBeLessThan(11);
        } finally {
          release();
          await subscription.stop();
        }
      },
      timeout,
    );

    it(
      'stops delivering after stop()',
      async () => {
        const recorder = new SubscriptionRecorder(isMine);
        const subscription = store.subscribeToAll(
          { fromPosition: 'end', filter: mine() },
          recorder.handlers,
        );
        await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live', timeout);
        await store.append(stream('a'), [event('Seen')], 'any');
        await recorder.waitFor(() => recorder.events.length >= 1, '1 event', timeout);
        await subscription.stop();
        await store.append(stream('a'), [event('Unseen')], 'any');
        await sleep(200);
        expect(recorder.events.map((e) => e.type)).toEqual(['Seen']);
        expect(recorder.errors).toEqual([]);
        await subscription.stop(); // idempotent
      },
      timeout,
    );

    it(
      'stops and reports through onError when the handler throws',
      async () => {
        const boom = new Error('handler failed');
        const recorder = new SubscriptionRecorder(isMine, (batch) => {
          if (batch.some((e) => e.type === 'Poison')) throw boom;
        });
        const subscription = store.subscribeToAll(
          { fromPosition: 'end', filter: mine() },
          recorder.handlers,
        );
        try {
          await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'live', timeout);
          await store.append(stream('a'), [event('Fine')], 'any');
          await recorder.waitFor(() => recorder.events.length >= 1, '1 event', timeout);
          await store.append(stream('a'), [event('Poison')], 'any');
          await recorder.waitFor(() => recorder.errors.length > 0, 'onError', timeout);
          await store.append(stream('a'), [event('AfterError')], 'any');
          await sleep(200);
          expect(recorder.errors).toEqual([boom]);
          expect(recorder.events.map((e) => e.type)).toEqual(['Fine']);
        } finally {
          await subscription.stop();
        }
      },
      timeout,
    );
  });

  describe('concurrency', () => {
    it(
      'lets exactly one of 50 concurrent appends win each revision',
      async () => {
        const race = async (expected: ExpectedRevision): Promise<void> => {
          const results = await Promise.allSettled(
            Array.from({ length: 50 }, (_, i) =>
              store.append(stream('hot'), [event(`Try${i}`)], expected),
            ),
          );
          const won = results.filter((r) => r.status === 'fulfilled');
          const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(49);
          for (const r of lost) expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
        };
        await race('no_stream');
        await race(0);
        expect(await store.streamRevision(stream('hot'))).toBe(1);
        expect((await store.readStream(stream('hot'))).map((e) => e.revision)).toEqual([0, 1]);
      },
      Math.max(timeout, 30_000),
    );

    it(
      'commits 200 concurrent appends to different streams at distinct positions',
      async () => {
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            store.append(stream(`s${i}`), [event(`E${i}`)], 'no_stream'),
          ),
        );
        expect(results.every((r) => r.nextExpectedRevision === 0)).toBe(true);
        const sorted = results.map((r) => r.position).sort(comparePositions);
        expectIncreasing(sorted);
        const all = await store.readAll({ filter: mine() });
        expect(all).toHaveLength(200);
        expect(all.map((e) => e.position)).toEqual(sorted);
      },
      Math.max(timeout, 30_000),
    );
  });
}

export function event(type: string, data: unknown = { at: Date.now() }): EventData {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1 } };
}

async function expectWrongRevision(
  append: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number | null,
): Promise<void> {
  const error: unknown = await append.then(
    () => new Error('append succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected, actual });
}

function expectIncreasing(positions: readonly Position[]): void {
  for (let i = 1; i < positions.length; i += 1) {
    expect(comparePositions(positions[i - 1]!, positions[i]!)).toBe(-1);
  }
}
