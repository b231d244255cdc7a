import type { RecordedEvent } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { SqliteEventStore, type EventStore } from '@tollgate/event-store';
import { append, seedLog, statsProjection, usersProjection } from '../testing/sample-projections';
import { ProjectionHost } from './projection-host';

describe('ProjectionHost', () => {
  let events: EventStore;
  let store: ReadStore;
  let host: ProjectionHost | undefined;

  beforeEach(() => {
    events = SqliteEventStore.open(':memory:');
    store = new SqliteReadStore(':memory:');
  });
  afterEach(async () => {
    await host?.stop();
    host = undefined;
    await store.close();
    await events.close();
  });

  it('starts once every projection has caught up', async () => {
    await seedLog(events, 5, 4);
    host = new ProjectionHost(events, store, [usersProjection(), statsProjection()], {
      maxBatchSize: 7,
    });
    await host.start();
    expect(await store.collection('test_users').count()).toBe(5);
    expect(await store.collection('test_request_logs').count()).toBe(20);
    const head = (await events.headPosition())!;
    expect(host.hasReached(head)).toBe(true);
  });

  it('waitFor resolves true once every projection has applied the position', async () => {
    host = new ProjectionHost(events, store, [usersProjection(), statsProjection()]);
    await host.start();
    const { position } = await append(events, 'log-1', 'RequestLogged', { model: 'm', tokens: 3 });
    expect(await host.waitFor(position)).toBe(true);
    // Read-your-writes: the document is there as soon as waitFor says so.
    expect(await store.collection('test_model_stats').get('m')).toEqual({
      _id: 'm',
      model: 'm',
      requests: 1,
      tokens: 3,
    });
    expect(await host.waitFor(position, 0)).toBe(true); // already passed: immediate
  });

  it('waitFor does not wait out a live-pacing pause (read-your-writes stays immediate)', async () => {
    host = new ProjectionHost(events, store, [usersProjection()], { livePacingMs: 60_000 });
    await host.start();
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    const first = await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 1 });
    expect(await host.waitFor(first.position, 2000)).toBe(true);
    // The runner now pauses for a minute before its next batch of top-ups (a frequent, batched
    // type); the waiter cuts it short.
    const second = await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 2 });
    expect(await host.waitFor(second.position, 2000)).toBe(true);
    expect(await store.collection('test_users').get('1')).toMatchObject({ quota: 3 });
  });

  it('waitFor returns false on timeout', async () => {
    host = new ProjectionHost(events, store, [usersProjection()]);
    await host.start();
    const started = Date.now();
    expect(await host.waitFor({ commit: 1_000_000n, prepare: 1_000_000n }, 50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('waitFor waits for the slowest projection', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = statsProjection();
    const slowStats = {
      ...slow,
      apply: async (...args: Parameters<typeof slow.apply>) => (await gate, slow.apply(...args)),
    };
    host = new ProjectionHost(events, store, [usersProjection(), slowStats]);
    await host.start();
    const { position } = await append(events, 'log-1', 'RequestLogged', { model: 'm', tokens: 1 });
    expect(await host.waitFor(position, 30)).toBe(false);
    const waiting = host.waitFor(position, 2000);
    release();
    expect(await waiting).toBe(true);
  });

  it('calls onApplied listeners with the projection name and its events', async () => {
    host = new ProjectionHost(events, store, [usersProjection(), statsProjection()]);
    const calls: Array<[string, string[]]> = [];
    const off = host.onApplied((name, applied: readonly RecordedEvent[]) =>
      calls.push([name, applied.map((e) => e.type)]),
    );
    await host.start();
    const { position } = await append(events, 'user-1', 'UserRegistered', {
      userId: '1',
      name: 'Ann',
    });
    await host.waitFor(position);
    off();
    const next = await append(events, 'log-1', 'RequestLogged', { model: 'm', tokens: 1 });
    await host.waitFor(next.position);
    expect(calls).toEqual([['test_users', ['UserRegistered']]]);
  });

  it('keeps going when a listener throws', async () => {
    const errors: string[] = [];
    host = new ProjectionHost(events, store, [usersProjection()], {
      onError: (_n, e) => errors.push(e.message),
    });
    host.onApplied(() => {
      throw new Error('listener bug');
    });
    await host.start();
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    const { position } = await append(events, 'user-2', 'UserRegistered', {
      userId: '2',
      name: 'Bob',
    });
    expect(await host.waitFor(position)).toBe(true);
    expect(await store.collection('test_users').count()).toBe(2);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('rejects start when a projection fails while catching up', async () => {
    await seedLog(events, 2, 1);
    const broken = usersProjection({
      onApply: () => {
        throw new Error('bug');
      },
    });
    host = new ProjectionHost(events, store, [broken, statsProjection()]);
    await expect(host.start()).rejects.toThrow(/test_users failed: bug/);
  });

  it('refuses two projections sharing a collection', () => {
    const users = usersProjection();
    expect(
      () =>
        new ProjectionHost(events, store, [
          users,
          { ...statsProjection(), collections: users.collections },
        ]),
    ).toThrow(/declared by both/);
  });
});
