import type { EventStore, RecordedEvent } from '@tollgate/event-store/event-store.port';
import { comparePositions, serializePosition } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { SqliteEventStore } from '@tollgate/event-store';
import {
  append,
  countTransactionWrites,
  statsCollections,
  userCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
} from '../testing/sample-projections';
import { CHECKPOINTS } from './checkpoint';
import { ProjectionRunner } from './projection-runner';

describe('ProjectionRunner', () => {
  let events: EventStore;
  let store: ReadStore;
  const runners: ProjectionRunner[] = [];
  const run = (runner: ProjectionRunner) => (runners.push(runner), runner);

  beforeEach(() => {
    events = SqliteEventStore.open(':memory:');
    store = new SqliteReadStore(':memory:');
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await store.close();
    await events.close();
  });

  it('turns recorded events into documents and stores its checkpoint', async () => {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 5 });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 3 });
    const last = await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anna' });
    const runner = run(new ProjectionRunner(events, store, [usersProjection()]));
    await runner.start();
    await runner.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual({
      _id: '1',
      name: 'Anna',
      quota: 8,
      biggestTopUp: 5,
    });
    expect(await store.collection(CHECKPOINTS).get('test_users')).toEqual({
      _id: 'test_users',
      position: serializePosition(last.position),
      version: 1,
    });
    expect(runner.position()).toEqual(last.position);
  });

  it('catches up at once on an empty log and then follows live events', async () => {
    const runner = run(new ProjectionRunner(events, store, [usersProjection()]));
    await runner.start();
    await runner.caughtUp;
    const { position } = await append(events, 'user-1', 'UserRegistered', {
      userId: '1',
      name: 'Ann',
    });
    await until(runner, position);
    expect(await store.collection('test_users').get('1')).toEqual({
      _id: '1',
      name: 'Ann',
      quota: 0,
    });
  });

  it("reports each projection's position and the time of the last event it processed", async () => {
    const runner = run(new ProjectionRunner(events, store, [usersProjection(), statsProjection()]));
    await runner.start();
    expect(runner.progress()).toEqual([
      { name: 'test_users', position: null, appliedAt: null },
      { name: 'test_stats', position: null, appliedAt: null },
    ]);
    const { position } = await append(events, 'misc-1', 'SomethingElseHappened', {});
    await until(runner, position);
    const [recorded] = await events.readAll({ maxCount: 1 });
    expect(runner.progress()).toEqual([
      { name: 'test_users', position, appliedAt: recorded!.recordedAt },
      { name: 'test_stats', position, appliedAt: recorded!.recordedAt },
    ]);
  });

  it('advances past events it does not handle', async () => {
    const runner = run(new ProjectionRunner(events, store, [usersProjection()]));
    await runner.start();
    const { position } = await append(events, 'misc-1', 'SomethingElseHappened', {});
    await until(runner, position);
    expect(runner.hasReached(position)).toBe(true);
  });

  it('resumes from its checkpoint after a restart without applying anything twice', async () => {
    await seedLog(events, 4, 3);
    const first = run(new ProjectionRunner(events, store, [usersProjection()]));
    await first.start();
    await first.caughtUp;
    await first.stop();
    const before = await snapshot(store, ['test_users']);

    const applied: RecordedEvent[] = [];
    const second = run(
      new ProjectionRunner(events, store, [usersProjection({ onApply: (e) => applied.push(e) })]),
    );
    await second.start();
    await second.caughtUp;
    expect(applied).toEqual([]);
    expect(await snapshot(store, ['test_users'])).toEqual(before);

    const { position } = await append(events, 'billing-0', 'QuotaAdded', {
      userId: '0',
      amount: 100,
    });
    await until(second, position);
    expect(applied.map((e) => e.type)).toEqual(['QuotaAdded']);
    expect((await store.collection('test_users').get('0'))?.['quota']).toBe(
      (before['test_users']![0]!['quota'] as number) + 100,
    );
  });

  it('rolls back a batch that fails half-way, and the restart applies it exactly once', async () => {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    for (let i = 1; i <= 5; i++)
      await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: i });
    let seen = 0;
    const crashing = usersProjection({
      onApply: () => {
        if (++seen === 4) throw new Error('crash in the middle of the batch');
      },
    });
    const first = run(new ProjectionRunner(events, store, [crashing], { maxBatchSize: 100 }));
    await first.start();
    await expect(first.caughtUp).rejects.toThrow(/crash in the middle/);
    // Three events were applied inside the transaction, which rolled back: nothing landed, no checkpoint.
    expect(await store.collection('test_users').count()).toBe(0);
    expect(await store.collection(CHECKPOINTS).get('test_users')).toBeNull();

    const second = run(
      new ProjectionRunner(events, store, [usersProjection()], { maxBatchSize: 100 }),
    );
    await second.start();
    await second.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual({
      _id: '1',
      name: 'Ann',
      quota: 15,
      biggestTopUp: 5,
    });
  });

  it('ignores a batch delivered twice', async () => {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 7 });
    const runner = run(new ProjectionRunner(redelivering(events), store, [usersProjection()]));
    await runner.start();
    await runner.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual({
      _id: '1',
      name: 'Ann',
      quota: 7,
      biggestTopUp: 7,
    });
  });

  it('two processes sharing the read store do not apply an event twice', async () => {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    const a = run(new ProjectionRunner(events, store, [usersProjection()], { maxBatchSize: 1 }));
    const b = run(new ProjectionRunner(events, store, [usersProjection()], { maxBatchSize: 3 }));
    await a.start();
    await a.caughtUp;
    await b.start();
    await b.caughtUp;
    for (let i = 1; i < 10; i++) {
      await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: i });
    }
    const last = await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 10 });
    await Promise.all([until(a, last.position), until(b, last.position)]);
    expect((await store.collection('test_users').get('1'))?.['quota']).toBe(55);
  });

  it('drops its collections and replays when the version changes', async () => {
    await seedLog(events, 3, 2);
    const v1 = run(new ProjectionRunner(events, store, [statsProjection()]));
    await v1.start();
    await v1.caughtUp;
    await v1.stop();
    const built = await snapshot(store, statsCollections);
    await store.collection('test_model_stats').put({ _id: 'stale', requests: 999 });

    const applied: RecordedEvent[] = [];
    const v2 = run(
      new ProjectionRunner(events, store, [
        statsProjection({ version: 2, onApply: (e) => applied.push(e) }),
      ]),
    );
    await v2.start();
    await v2.caughtUp;
    expect(applied).toHaveLength(6);
    expect(await snapshot(store, statsCollections)).toEqual(built);
    expect((await store.collection(CHECKPOINTS).get('test_stats'))?.['version']).toBe(2);
  });

  it('reports applied events after they are committed', async () => {
    const seenDocs: unknown[] = [];
    const calls: Array<[string, string[]]> = [];
    const runner = run(
      new ProjectionRunner(events, store, [usersProjection()], {
        onApplied: (name, applied) => {
          calls.push([name, applied.map((e) => e.type)]);
          void store
            .collection('test_users')
            .get('1')
            .then((doc) => seenDocs.push(doc));
        },
      }),
    );
    await runner.start();
    await append(events, 'misc-1', 'SomethingElseHappened', {});
    const { position } = await append(events, 'user-1', 'UserRegistered', {
      userId: '1',
      name: 'Ann',
    });
    await until(runner, position);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['test_users', ['UserRegistered']]]);
    expect(seenDocs).toEqual([{ _id: '1', name: 'Ann', quota: 0 }]);
  });

  describe('live pacing', () => {
    const register = (i: number) =>
      append(events, `user-${i}`, 'UserRegistered', { userId: String(i), name: `U${i}` });
    // QuotaAdded goes through the sample's `batched` path: the frequent kind a pause holds back.
    const topUp = (i: number) =>
      append(events, `billing-${i}`, 'QuotaAdded', { userId: '1', amount: i });

    async function pacedRunner(livePacingMs: number) {
      const batches: number[] = [];
      const runner = run(
        new ProjectionRunner(events, store, [usersProjection()], {
          livePacingMs,
          onApplied: (_name, applied) => batches.push(applied.length),
        }),
      );
      await runner.start();
      await runner.caughtUp;
      await until(runner, (await register(1)).position);
      batches.length = 0;
      return { runner, batches };
    }

    it('applies the first event after a quiet spell at once, and the frequent ones arriving in the pause as one batch after it', async () => {
      const { runner, batches } = await pacedRunner(150);
      const first = await topUp(1);
      await until(runner, first.position);
      const appliedAt = Date.now();
      expect(batches).toEqual([1]);
      let last = first;
      for (let i = 2; i <= 5; i++) last = await topUp(i);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(runner.hasReached(last.position)).toBe(false); // still pausing
      await until(runner, last.position);
      expect(Date.now() - appliedAt).toBeGreaterThanOrEqual(140);
      expect(batches).toEqual([1, 4]);
      expect((await store.collection('test_users').get('1'))?.['quota']).toBe(15);
    });

    it('any other event ends the pause at once, and takes the waiting frequent ones along', async () => {
      const { runner, batches } = await pacedRunner(10_000);
      await until(runner, (await topUp(1)).position);
      await topUp(2);
      const asked = Date.now();
      const renamed = await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Ann' });
      await until(runner, renamed.position);
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(batches).toEqual([1, 2]);
      expect(await store.collection('test_users').get('1')).toMatchObject({
        name: 'Ann',
        quota: 3,
      });
    });

    it('hurry() ends the pause: whoever waits for a position does not wait out the interval', async () => {
      const { runner, batches } = await pacedRunner(10_000);
      await until(runner, (await topUp(1)).position);
      const second = await topUp(2);
      const asked = Date.now();
      runner.hurry();
      await until(runner, second.position);
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(batches).toEqual([1, 1]);
    });

    it('stops without waiting out a pause', async () => {
      const { runner } = await pacedRunner(10_000);
      await until(runner, (await topUp(1)).position);
      await topUp(2);
      const asked = Date.now();
      await runner.stop();
      expect(Date.now() - asked).toBeLessThan(2000);
    });
  });

  it('writes the checkpoint after many unhandled events even when nothing applied', async () => {
    const runner = run(
      new ProjectionRunner(events, store, [usersProjection()], {
        checkpointEvery: 5,
        maxBatchSize: 1,
      }),
    );
    await runner.start();
    for (let i = 0; i < 5; i++) await append(events, 'misc-1', 'SomethingElseHappened', { i });
    const last = await append(events, 'misc-1', 'SomethingElseHappened', { i: 5 });
    await until(runner, last.position);
    const checkpoint = await store.collection(CHECKPOINTS).get('test_users');
    expect(checkpoint?.['position']).toBe('5/5');
  });

  it('after catching up, retries a failing batch with backoff', async () => {
    let failures = 0;
    const errors: string[] = [];
    const flaky = usersProjection({
      onApply: (e) => {
        if (e.type === 'QuotaAdded' && failures++ === 0) throw new Error('transient');
      },
    });
    const runner = run(
      new ProjectionRunner(events, store, [flaky], {
        retryDelayMs: 10,
        onError: (_n, error) => errors.push(error.message),
      }),
    );
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await runner.start();
    await runner.caughtUp;
    const { position } = await append(events, 'billing-1', 'QuotaAdded', {
      userId: '1',
      amount: 4,
    });
    await until(runner, position);
    expect(errors).toEqual(['transient']);
    expect((await store.collection('test_users').get('1'))?.['quota']).toBe(4);
  });

  it('a failing projection holds every projection back, reported by name, until it succeeds', async () => {
    // The decision: one subscription and one transaction per batch, so a projection that throws
    // rolls the batch back for all of them (no read model runs ahead of the others) and is reported
    // by name at every retry rather than skipped silently.
    let broken = true;
    const errors: Array<[string, string]> = [];
    const runner = run(
      new ProjectionRunner(
        events,
        store,
        [
          usersProjection({
            onApply: (e) => {
              if (broken && e.type === 'QuotaAdded') throw new Error('bug');
            },
          }),
          statsProjection(),
        ],
        { retryDelayMs: 5, onError: (name, error) => errors.push([name, error.message]) },
      ),
    );
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await runner.start();
    await runner.caughtUp;
    const quota = await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 4 });
    const logged = await append(events, 'req-1', 'RequestLogged', { model: 'm', tokens: 3 });
    while (errors.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(errors[0]).toEqual(['test_users', 'bug']);
    expect(runner.hasReached(quota.position)).toBe(false);
    expect(await store.collection('test_request_logs').count()).toBe(0);

    broken = false;
    await until(runner, logged.position);
    expect((await store.collection('test_users').get('1'))?.['quota']).toBe(4);
    expect(await store.collection('test_request_logs').count()).toBe(1);
  });

  it('feeds every projection from one subscription, in one transaction per batch', async () => {
    await seedLog(events, 4, 3);
    let subscriptions = 0;
    const counted = new Proxy(events, {
      get(target, key, receiver) {
        if (key === 'subscribeToAll') subscriptions++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    let transactions = 0;
    const store2 = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'transaction') transactions++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const runner = run(
      new ProjectionRunner(counted, store2, [usersProjection(), statsProjection()], {
        maxBatchSize: 1000,
      }),
    );
    await runner.start();
    await runner.caughtUp;
    expect(subscriptions).toBe(1);
    expect(transactions).toBe(1);
    expect(await store.collection('test_users').count()).toBe(4);
    expect(await store.collection('test_request_logs').count()).toBe(12);
    const head = (await events.headPosition())!;
    for (const name of ['test_users', 'test_stats'])
      expect((await store.collection(CHECKPOINTS).get(name))?.['position']).toBe(
        serializePosition(head),
      );
  });

  it('writes a batch of increments to one document once', async () => {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    for (let i = 1; i <= 20; i++)
      await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: i });
    await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anna' });
    for (let i = 1; i <= 10; i++)
      await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 100 });
    const counted = countTransactionWrites(store);
    const runner = run(
      new ProjectionRunner(events, counted.store, [usersProjection()], { maxBatchSize: 1000 }),
    );
    await runner.start();
    await runner.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual({
      _id: '1',
      name: 'Anna',
      quota: 210 + 1000,
      biggestTopUp: 100,
    });
    // The rename sits between the top-ups: one merged write before it, one after.
    expect(counted.writes).toEqual(['1', '1', '1']);
  });

  it('replays only the projection whose version changed', async () => {
    await seedLog(events, 3, 2);
    const first = run(new ProjectionRunner(events, store, [usersProjection(), statsProjection()]));
    await first.start();
    await first.caughtUp;
    await first.stop();
    const built = await snapshot(store, [...userCollections, ...statsCollections]);

    const appliedUsers: RecordedEvent[] = [];
    const appliedStats: RecordedEvent[] = [];
    const second = run(
      new ProjectionRunner(events, store, [
        usersProjection({ onApply: (e) => appliedUsers.push(e) }),
        statsProjection({ version: 2, onApply: (e) => appliedStats.push(e) }),
      ]),
    );
    await second.start();
    await second.caughtUp;
    expect(appliedUsers).toEqual([]);
    expect(appliedStats).toHaveLength(6);
    expect(await snapshot(store, [...userCollections, ...statsCollections])).toEqual(built);

    const { position } = await append(events, 'billing-0', 'QuotaAdded', {
      userId: '0',
      amount: 1,
    });
    await until(second, position);
    expect(appliedUsers.map((e) => e.type)).toEqual(['QuotaAdded']);
  });
});

/** Resolves when the runner has processed `position`. */
function until(runner: ProjectionRunner, position: RecordedEvent['position']): Promise<void> {
  return new Promise((resolve) => {
    if (runner.hasReached(position)) return resolve();
    const off = runner.onAdvance(() => {
      if (runner.position() && comparePositions(runner.position()!, position) >= 0) {
        off();
        resolve();
      }
    });
  });
}

/** An event store whose subscriptions deliver every batch twice (at-least-once delivery). */
function redelivering(inner: EventStore): EventStore {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'subscribeToAll') return Reflect.get(target, key, receiver) as unknown;
      const subscribe: EventStore['subscribeToAll'] = (options, handlers) =>
        target.subscribeToAll(options, {
          ...handlers,
          onEvents: async (batch) => {
            await handlers.onEvents(batch);
            await handlers.onEvents(batch);
          },
        });
      return subscribe;
    },
  });
}
