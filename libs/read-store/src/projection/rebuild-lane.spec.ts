import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { Position } from '@tollgate/event-store/event-store.port';
import { SqliteEventStore } from '@tollgate/event-store';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import {
  sampleCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
  type SampleOptions,
} from '../testing/sample-projections';
import { CHECKPOINTS, type CheckpointDoc } from './checkpoint';
import type { Projection } from './projection';
import { rebuildProjections } from './rebuild';
import { laneRows, replayLane, type RebuildLane } from './rebuild-lane';

/**
 * A lane on this thread (the gateway's runs on a worker thread from its compiled file): the same
 * port, replay and copy, into a file of its own. `laneOptions` shapes its projections.
 */
function sameThreadLane(
  dir: string,
  takes: (p: Projection) => boolean,
  laneOptions: SampleOptions = {},
): RebuildLane & { started: number; aborted: number } {
  const lane = {
    started: 0,
    aborted: 0,
    takes,
    start(projections: readonly Projection[], head: Position) {
      lane.started += 1;
      const file = join(dir, `lane-${lane.started}-${Date.now()}.sqlite`);
      const own = new SqliteReadStore(file, { readers: 1 });
      const { port1, port2 } = new MessageChannel();
      const mine = projections.map((p) =>
        p.name === 'test_users' ? usersProjection(laneOptions) : statsProjection(laneOptions),
      );
      const finished = replayLane(port2, head, own, mine)
        .then((r) => r.applied)
        .finally(() => own.close());
      finished.catch(() => undefined);
      return {
        projections,
        port: port1,
        finished,
        mergeInto: (store: ReadStore) =>
          (store as SqliteReadStore).copyRowsFrom(file, laneRows(projections)),
        abort: async () => {
          lane.aborted += 1;
          port2.close();
          await finished.catch(() => undefined);
        },
      };
    },
  };
  return lane;
}

// One core: the store reads on the calling thread and no lane starts (the last case).
const withThreads = availableParallelism() > 1 ? it : it.skip;

describe('rebuildProjections with a second lane', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-rebuild-lane-'));
  let events: SqliteEventStore;
  const stores: ReadStore[] = [];
  const newStore = () => {
    const store = new SqliteReadStore(':memory:');
    stores.push(store);
    return store;
  };
  const projections = () => [usersProjection(), statsProjection()];
  const checkpoints = async (store: ReadStore) =>
    (await store.collection<CheckpointDoc>(CHECKPOINTS).find()).map((c) => [c._id, c.position]);

  beforeAll(async () => {
    // On a file, so that a reading thread can open it (the lane gets the pages it reads).
    events = SqliteEventStore.open(join(dir, 'events.sqlite'), { synchronous: 'normal' });
    await seedLog(events, 12, 6);
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  withThreads(
    'gives the read models, counts and checkpoints of one lane, the lane taking one projection',
    async () => {
      const single = newStore();
      const alone = await rebuildProjections(events, single, projections(), { batchSize: 16 });
      expect(alone.inLane).toEqual([]);

      const store = newStore();
      const lane = sameThreadLane(dir, (p) => p.name === 'test_stats');
      const progress: number[] = [];
      const result = await rebuildProjections(events, store, projections(), {
        batchSize: 16,
        lane,
        onProgress: (done) => progress.push(done),
      });

      expect(events.sharesPages).toBe(true);
      expect(lane.started).toBe(1);
      expect(result.inLane).toEqual(['test_stats']);
      expect(result.applied).toEqual(alone.applied);
      expect(result.applied['test_stats']).toBeGreaterThan(0);
      expect(result.events).toBe(alone.events);
      expect(await snapshot(store, sampleCollections)).toEqual(
        await snapshot(single, sampleCollections),
      );
      expect(await checkpoints(store)).toEqual(await checkpoints(single));
      expect(progress.at(-1)).toBe(Number(result.position!.commit));
    },
  );

  withThreads(
    'a lane that fails fails the rebuild with its own error; its projections keep no checkpoint',
    async () => {
      const store = newStore();
      let seen = 0;
      const lane = sameThreadLane(dir, (p) => p.name === 'test_users', {
        onApply: () => {
          if (++seen === 50) throw new Error('lane power cut');
        },
      });
      await expect(
        rebuildProjections(events, store, projections(), { batchSize: 16, lane }),
      ).rejects.toThrow('lane power cut');
      expect(lane.aborted).toBe(1);
      const kept = (await checkpoints(store)).map(([name]) => name);
      expect(kept).not.toContain('test_users'); // the runners replay it from the start
      expect(await store.collection('test_users').count()).toBe(0);
    },
  );

  withThreads("the first lane's own failure is its error; the lane stops", async () => {
    const store = newStore();
    let seen = 0;
    const failing = statsProjection({
      onApply: () => {
        if (++seen === 30) throw new Error('first lane power cut');
      },
    });
    const lane = sameThreadLane(dir, (p) => p.name === 'test_users');
    await expect(
      rebuildProjections(events, store, [usersProjection(), failing], { batchSize: 16, lane }),
    ).rejects.toThrow('first lane power cut');
    expect(lane.aborted).toBe(1);
    expect(await store.collection('test_users').count()).toBe(0); // never copied in
  });

  it('is not started for a projection resumed from a checkpoint, nor where the store reads on the calling thread', async () => {
    const store = newStore();
    const lane = sameThreadLane(dir, () => true);
    const head = (await events.headPosition())!;
    await rebuildProjections(events, store, projections(), {
      lane,
      resume: new Map([
        ['test_users', head],
        ['test_stats', head],
      ]),
    });
    expect(lane.started).toBe(0);

    // Every projection fresh, but the log is in memory: no other thread can open it.
    const inMemory = SqliteEventStore.open(':memory:');
    try {
      await seedLog(inMemory, 3, 2);
      expect(inMemory.sharesPages).toBe(false);
      const result = await rebuildProjections(inMemory, newStore(), projections(), { lane });
      expect(lane.started).toBe(0);
      expect(result.inLane).toEqual([]);
      expect(result.applied['test_users']).toBeGreaterThan(0);
    } finally {
      await inMemory.close();
    }
  });
});
