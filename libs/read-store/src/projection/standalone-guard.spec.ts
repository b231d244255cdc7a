import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@tollgate/event-store';
import type { EventStore, RecordedEvent } from '@tollgate/event-store/event-store.port';
import { comparePositions } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { nonAtomic } from '../testing/non-atomic-store';
import { append, usersProjection } from '../testing/sample-projections';
import { CHECKPOINTS } from './checkpoint';
import { ProjectionRunner } from './projection-runner';
import { rebuildProjections } from './rebuild';

describe('projections on a store without atomic transactions', () => {
  let events: EventStore;
  let sqlite: SqliteReadStore;
  let store: ReadStore;
  const runners: ProjectionRunner[] = [];
  const run = (runner: ProjectionRunner) => (runners.push(runner), runner);

  beforeEach(() => {
    events = SqliteEventStore.open(':memory:');
    sqlite = new SqliteReadStore(':memory:');
    store = nonAtomic(sqlite);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await sqlite.close();
    await events.close();
  });

  /** Top-ups 1 and 2 are written when the rename flushes them; the crash comes at top-up 3. */
  async function seedCrashingBatch(): Promise<RecordedEvent['position']> {
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 1 });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 2 });
    await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anna' });
    const last = await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 3 });
    return last.position;
  }
  const crashAtAmount = (amount: number, times = 1) =>
    usersProjection({
      onApply: (e) => {
        if ((e.data as { amount?: number }).amount === amount && times-- > 0)
          throw new Error('crash in the middle of the batch');
      },
    });
  const whole = { _id: '1', name: 'Anna', quota: 6, biggestTopUp: 3 };

  it('a crash mid-batch leaves the projection marked, and the next start rebuilds it instead of counting twice', async () => {
    await seedCrashingBatch();
    const first = run(
      new ProjectionRunner(events, store, [crashAtAmount(3)], { maxBatchSize: 100 }),
    );
    await first.start();
    await expect(first.caughtUp).rejects.toThrow(/crash in the middle/);
    // Part of the batch landed (no rollback here), and the mark says so.
    expect((await store.collection('test_users').get('1'))?.['quota']).toBe(3);
    expect(await store.collection(CHECKPOINTS).get('test_users')).toMatchObject({ dirty: '5/5' });

    const second = run(
      new ProjectionRunner(events, store, [usersProjection()], { maxBatchSize: 100 }),
    );
    await second.start();
    await second.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual(whole);
    const checkpoint = await store.collection(CHECKPOINTS).get('test_users');
    expect(checkpoint).toEqual({ _id: 'test_users', position: '5/5', version: 1 });
  });

  it('a resumed projection that was not marked replays nothing (the mark is cleared with each checkpoint)', async () => {
    const position = await seedCrashingBatch();
    const first = run(
      new ProjectionRunner(events, store, [usersProjection()], { maxBatchSize: 2 }),
    );
    await first.start();
    await first.caughtUp;
    await first.stop();
    expect((await store.collection(CHECKPOINTS).get('test_users'))?.['dirty']).toBeUndefined();

    const applied: string[] = [];
    const second = run(
      new ProjectionRunner(events, store, [
        usersProjection({ onApply: (e) => applied.push(e.type) }),
      ]),
    );
    await second.start();
    await second.caughtUp;
    expect(applied).toEqual([]);
    expect(second.hasReached(position)).toBe(true);
    expect(await store.collection('test_users').get('1')).toEqual(whole);
  });

  it('once caught up, a batch that fails half-way is rebuilt before the retry, not replayed on top', async () => {
    const errors: string[] = [];
    const applied: string[] = [];
    let crashes = 1;
    const projection = usersProjection({
      onApply: (e) => {
        applied.push(`${e.type}${(e.data as { amount?: number }).amount ?? ''}`);
        if ((e.data as { amount?: number }).amount === 3 && crashes-- > 0)
          throw new Error('crash in the middle of the batch');
      },
    });
    const runner = run(
      new ProjectionRunner(events, store, [projection], {
        maxBatchSize: 100,
        retryDelayMs: 1,
        onError: (_name, error) => errors.push(error.message),
      }),
    );
    // An earlier batch leaves a checkpoint to resume from, which must not be trusted after the failure.
    await append(events, 'user-2', 'UserRegistered', { userId: '2', name: 'Bob' });
    await runner.start();
    await runner.caughtUp;
    expect(await store.collection(CHECKPOINTS).get('test_users')).toMatchObject({
      position: '1/1',
    });
    // One append, so one live batch: the rename flushes top-ups 1 and 2 to the store before 3 fails.
    const { position } = await events.append(
      'user-1',
      [
        ['UserRegistered', { userId: '1', name: 'Ann' }],
        ['QuotaAdded', { userId: '1', amount: 1 }],
        ['QuotaAdded', { userId: '1', amount: 2 }],
        ['UserRenamed', { userId: '1', name: 'Anna' }],
        ['QuotaAdded', { userId: '1', amount: 3 }],
      ].map(([type, data]) => ({ id: randomUUID(), type: type as string, data })),
      'any',
    );
    await until(runner, position);
    expect(errors).toEqual(['crash in the middle of the batch']);
    const batch = ['UserRegistered', 'QuotaAdded1', 'QuotaAdded2', 'UserRenamed', 'QuotaAdded3'];
    // The failed batch, then the rebuilt projection's replay from the start of the log.
    expect(applied).toEqual(['UserRegistered', ...batch, 'UserRegistered', ...batch]);
    expect(await store.collection('test_users').get('1')).toEqual(whole);
    expect((await store.collection(CHECKPOINTS).get('test_users'))?.['dirty']).toBeUndefined();
  });

  it('an offline rebuild interrupted mid-page is rebuilt again by the runner', async () => {
    // Pages of three: [register, rename, +1] then [+2, rename, +3], the second failing at +3 after
    // its rename flushed +2 to the store, with the first page's checkpoint already written.
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anne' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 1 });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 2 });
    await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anna' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 3 });
    await expect(
      rebuildProjections(events, store, [crashAtAmount(3)], { batchSize: 3 }),
    ).rejects.toThrow(/crash in the middle/);
    expect((await store.collection('test_users').get('1'))?.['quota']).toBe(3);
    expect(await store.collection(CHECKPOINTS).get('test_users')).toMatchObject({
      position: '3/3',
      dirty: '6/6',
    });

    const runner = run(new ProjectionRunner(events, store, [usersProjection()]));
    await runner.start();
    await runner.caughtUp;
    expect(await store.collection('test_users').get('1')).toEqual(whole);
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
