import { UnavailableError } from '@eventstore/db-client';
import { event, eventStoreContract } from '../testing/event-store.contract';
import { SubscriptionRecorder, sleep } from '../testing/subscription-recorder';
import { WrongExpectedRevisionError } from '../event-store.port';
import { toEsdbEvent } from './esdb-mapping';
import { EsdbEventStore } from './esdb-event-store';
import { FakeEsdbClient } from '../testing/fake-esdb-client';

const fastRetry = { initialDelayMs: 5, maxDelayMs: 40, maxAttempts: 4 };

function makeStore(options: { throwOnAppendFailure?: boolean } = {}): {
  fake: FakeEsdbClient;
  store: EsdbEventStore;
} {
  const fake = new FakeEsdbClient({ sendsCaughtUp: true, ...options });
  return { fake, store: new EsdbEventStore(fake.asClient(), { retry: fastRetry }) };
}

describe('EsdbEventStore over a fake client with throwOnAppendFailure=false', () => {
  eventStoreContract(
    async () =>
      new EsdbEventStore(
        new FakeEsdbClient({ sendsCaughtUp: true, throwOnAppendFailure: false }).asClient(),
      ),
  );
});

describe('EsdbEventStore parity with the production engine (fake client)', () => {
  let fake: FakeEsdbClient;
  let store: EsdbEventStore;
  afterEach(() => store.close());

  describe('an append answered success: false', () => {
    beforeEach(() => ({ fake, store } = makeStore({ throwOnAppendFailure: false })));

    it('is a WrongExpectedRevisionError carrying the actual revision, never a write', async () => {
      // The fake answers a result, not a throw: the adapter must read `success`.
      const raw = await fake.appendToStream('raw-a', [toEsdbEvent(event('X'))], {
        expectedRevision: 5n,
      });
      expect(raw).toMatchObject({ success: false, nextExpectedRevision: -1n });

      await store.append('acct-a', [event('A'), event('B')], 'no_stream');
      const error: unknown = await store.append('acct-a', [event('C')], 0).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ streamId: 'acct-a', expected: 0, actual: 1 });
      const missing: unknown = await store
        .append('acct-none', [event('C')], 'stream_exists')
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({ expected: 'stream_exists', actual: null });
      expect((await store.readStream('acct-a')).map((e) => e.type)).toEqual(['A', 'B']);
      expect(await store.streamRevision('acct-none')).toBeNull();
    });
  });

  describe('one shared $all subscription', () => {
    beforeEach(() => ({ fake, store } = makeStore()));

    it('multiplexes port subscriptions with their own filters, starts and batches', async () => {
      const early = await store.append('user-1', [event('UserRegistered')], 'no_stream');
      await store.append('token-1', [event('TokenCreated')], 'no_stream');
      const all = new SubscriptionRecorder();
      const users = new SubscriptionRecorder();
      const later = new SubscriptionRecorder();
      const subs = [
        store.subscribeToAll({ fromPosition: 'start', maxBatchSize: 1 }, all.handlers),
        store.subscribeToAll(
          { fromPosition: 'start', filter: { streamPrefixes: ['user-'] } },
          users.handlers,
        ),
        store.subscribeToAll({ fromPosition: early.position }, later.handlers),
      ];
      try {
        for (const r of [all, users, later])
          await r.waitFor(() => r.caughtUpCalls > 0, 'caught up');
        await store.append('user-1', [event('UserRenamed')], 0);
        await store.append('token-1', [event('TokenDeleted')], 0);
        await all.waitFor(() => all.events.length === 4, '4 events');
        await later.waitFor(() => later.events.length === 3, '3 events');
        await users.waitFor(() => users.events.length === 2, '2 events');
        expect(all.events.map((e) => e.type)).toEqual([
          'UserRegistered',
          'TokenCreated',
          'UserRenamed',
          'TokenDeleted',
        ]);
        expect(Math.max(...all.rawBatchSizes)).toBe(1);
        expect(users.events.map((e) => e.type)).toEqual(['UserRegistered', 'UserRenamed']);
        expect(later.events.map((e) => e.type)).toEqual([
          'TokenCreated',
          'UserRenamed',
          'TokenDeleted',
        ]);
        for (const r of [all, users, later]) expect(r.caughtUpCalls).toBe(1);
        // Three port subscriptions, one server subscription.
        expect(fake.stats.subscriptionsOpened).toBe(1);
        expect(fake.openSubscriptions).toBe(1);
      } finally {
        await Promise.all(subs.map((s) => s.stop()));
      }
      expect(fake.openSubscriptions).toBe(0);
    });

    it('lets a subscriber that starts behind catch up by reading, then join the shared stream', async () => {
      const live = new SubscriptionRecorder();
      const first = store.subscribeToAll({ fromPosition: 'end' }, live.handlers);
      await live.waitFor(() => live.caughtUpCalls > 0, 'live');
      for (let i = 0; i < 30; i += 1) await store.append(`s-${i % 3}`, [event(`E${i}`)], 'any');
      // Appends racing the newcomer's catch-up must reach it exactly once.
      const racing: Promise<unknown>[] = [];
      const behind = new SubscriptionRecorder(undefined, (_batch, r) => {
        if (r.batches.length < 4)
          racing.push(store.append('race', [event(`R${r.batches.length}`)], 'any'));
      });
      const second = store.subscribeToAll(
        { fromPosition: 'start', maxBatchSize: 7 },
        behind.handlers,
      );
      try {
        await behind.waitFor(() => behind.caughtUpCalls > 0, 'caught up');
        await Promise.all(racing);
        await store.append('s-0', [event('Last')], 'any');
        const expected = (await store.readAll()).map((e) => e.id);
        await behind.waitFor(() => behind.events.length === expected.length, 'all events');
        await sleep(30);
        expect(behind.ids).toEqual(expected);
        expect(live.ids).toEqual(expected);
        expect(fake.stats.subscriptionsOpened).toBe(1);
      } finally {
        await Promise.all([first.stop(), second.stop()]);
      }
    });
  });

  describe('server-side filters on reads', () => {
    beforeEach(() => ({ fake, store } = makeStore()));

    it('finds the head with one record read, however many system records follow it', async () => {
      const { position } = await store.append('user-1', [event('UserRegistered')], 'no_stream');
      for (let i = 0; i < 500; i += 1) fake.writeForeign('$stats-node', '$statsCollected');
      const before = { ...fake.stats };
      expect(await store.headPosition()).toEqual(position);
      expect(fake.stats.readAllCalls - before.readAllCalls).toBe(1);
      expect(fake.stats.readAllRecords - before.readAllRecords).toBe(1);
    });

    // 300 appends take seconds on a loaded machine; a test that timed out would go on appending
    // into the next one, so it gets room.
    it('reads a type filter in one pass of maxCount pages, never the other events', async () => {
      for (let i = 0; i < 300; i += 1) {
        const wanted = i % 50 === 0;
        await store.append(
          `usage-${i % 7}`,
          [event(wanted ? 'ChannelCreated' : 'UsageRecorded')],
          'any',
        );
      }
      const before = { ...fake.stats };
      const pages: string[][] = [];
      let from: Parameters<EsdbEventStore['readAll']>[0] = {};
      for (;;) {
        const page = await store.readAll({
          ...from,
          maxCount: 2,
          filter: { eventTypes: ['ChannelCreated'] },
        });
        pages.push(page.map((e) => e.type));
        const last = page[page.length - 1];
        if (page.length < 2 || !last) break;
        from = { fromPosition: last.position };
      }
      expect(pages.flat()).toEqual(Array.from({ length: 6 }, () => 'ChannelCreated'));
      // Every record sent matched (plus the inclusive start of each later page).
      expect(fake.stats.readAllRecords - before.readAllRecords).toBeLessThanOrEqual(
        6 + pages.length,
      );
    }, 30_000);
  });

  describe('transient errors', () => {
    beforeEach(() => ({ fake, store } = makeStore()));

    it('retries catch-up reads with backoff and delivers each event once', async () => {
      for (let i = 0; i < 20; i += 1) await store.append(`s-${i % 2}`, [event(`E${i}`)], 'any');
      fake.failNext('readAll', new UnavailableError(), 3);
      const recorder = new SubscriptionRecorder();
      const sub = store.subscribeToAll(
        { fromPosition: 'start', maxBatchSize: 4 },
        recorder.handlers,
      );
      try {
        await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'caught up');
        expect(recorder.events.map((e) => e.type)).toEqual(
          Array.from({ length: 20 }, (_, i) => `E${i}`),
        );
        expect(recorder.errors).toEqual([]);
      } finally {
        await sub.stop();
      }
    });

    it('resubscribes the shared stream from its last position after an unavailable server', async () => {
      const recorder = new SubscriptionRecorder();
      const sub = store.subscribeToAll({ fromPosition: 'start' }, recorder.handlers);
      try {
        await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'caught up');
        await store.append('a', [event('Before')], 'any');
        await recorder.waitFor(() => recorder.events.length === 1, 'first');
        fake.breakSubscriptions(new UnavailableError());
        // Written while no server subscription is open: must arrive after the reconnect.
        await store.append('a', [event('During1'), event('During2')], 'any');
        fake.failNext('subscribeToAll', new UnavailableError());
        await store.append('a', [event('After')], 'any');
        await recorder.waitFor(() => recorder.events.length === 4, '4 events');
        await sleep(50);
        expect(recorder.events.map((e) => e.type)).toEqual([
          'Before',
          'During1',
          'During2',
          'After',
        ]);
        expect(recorder.errors).toEqual([]);
        expect(fake.stats.subscriptionsOpened).toBe(3);
        expect(fake.openSubscriptions).toBe(1);
      } finally {
        await sub.stop();
      }
    });

    it('retries readAll and readStream', async () => {
      await store.append('a', [event('A')], 'no_stream');
      fake.failNext('readAll', new UnavailableError(), 2);
      fake.failNext('readStream', new UnavailableError(), 2);
      expect((await store.readAll()).map((e) => e.type)).toEqual(['A']);
      expect((await store.readStream('a')).map((e) => e.type)).toEqual(['A']);
    });

    it('gives up after the bounded attempts, and never retries other errors', async () => {
      await store.append('a', [event('A')], 'no_stream');
      fake.failNext('readAll', new UnavailableError(), fastRetry.maxAttempts);
      await expect(store.readAll()).rejects.toBeInstanceOf(UnavailableError);
      expect((await store.readAll()).map((e) => e.type)).toEqual(['A']);
      const notTransient = new Error('access denied');
      fake.failNext('readAll', notTransient);
      await expect(store.readAll()).rejects.toBe(notTransient);
    });
  });

  describe('duplicate event ids', () => {
    beforeEach(() => ({ fake, store } = makeStore()));

    it("answers the server's idempotent success as the first write's result, writing once", async () => {
      const events = [event('A'), event('B')];
      const first = await store.append('acct-1', events, 'no_stream');
      // The server itself answers a success for the retry and writes nothing...
      const raw = await fake.appendToStream('acct-1', events.map(toEsdbEvent), {
        expectedRevision: 'no_stream',
      });
      expect(raw).toMatchObject({ success: true, nextExpectedRevision: 1n });
      // ...and so does the adapter, without a read before the append.
      const reads = fake.stats.readStreamCalls;
      expect(await store.append('acct-1', events, 'no_stream')).toEqual(first);
      expect(fake.stats.readStreamCalls).toBe(reads);
      expect(await store.streamRevision('acct-1')).toBe(1);
    });
  });
});
