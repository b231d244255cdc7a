import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { SqliteEventStore, type EventStore } from '@tollgate/event-store';
import {
  append,
  sampleCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
} from '../testing/sample-projections';
import { CHECKPOINTS } from './checkpoint';
import { ProjectionHost } from './projection-host';
import { formatProgressBar, rebuildProjections } from './rebuild';

describe('rebuildProjections', () => {
  let events: EventStore;
  const stores: ReadStore[] = [];
  const newStore = () => {
    const store = new SqliteReadStore(':memory:');
    stores.push(store);
    return store;
  };
  const hosts: ProjectionHost[] = [];
  const newHost = (store: ReadStore, projections = [usersProjection(), statsProjection()]) => {
    const host = new ProjectionHost(events, store, projections, { maxBatchSize: 13 });
    hosts.push(host);
    return host;
  };

  beforeEach(async () => {
    events = SqliteEventStore.open(':memory:');
    await seedLog(events, 12, 6); // about 230 events: several pages and batches
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await events.close();
  });

  it('produces exactly the documents incremental application does', async () => {
    const incremental = newStore();
    await newHost(incremental).start();
    const rebuilt = newStore();
    await rebuildProjections(events, rebuilt, [usersProjection(), statsProjection()], {
      batchSize: 40,
    });
    expect(await snapshot(rebuilt, sampleCollections)).toEqual(
      await snapshot(incremental, sampleCollections),
    );
  });

  it('replaces a stale read model, reports progress and returns counts', async () => {
    const store = newStore();
    await newHost(store).start();
    await hosts.pop()!.stop();
    const expected = await snapshot(store, sampleCollections);
    await store.collection('test_users').put({ _id: 'stale', name: 'left over' });
    await store.collection('test_users').update('0', { $set: { quota: -1 } });

    const progress: Array<[number, number]> = [];
    const result = await rebuildProjections(events, store, [usersProjection(), statsProjection()], {
      batchSize: 25,
      onProgress: (done, total) => progress.push([done, total]),
    });

    expect(await snapshot(store, sampleCollections)).toEqual(expected);
    const relevant = (await events.readAll()).filter(
      (e) => e.type !== 'SomethingElseHappened',
    ).length;
    expect(result.events).toBe(relevant);
    expect(result.applied['test_stats']).toBe(72);
    expect(result.applied['test_users']).toBe(relevant - 72);
    expect(result.position).toEqual(await events.headPosition());
    // Progress in log positions up to the head (no counting pass): monotonic, ending at the head.
    const head = Number((await events.headPosition())!.commit);
    expect(progress[0]).toEqual([0, head]);
    expect(progress[progress.length - 1]).toEqual([head, head]);
    expect(progress.length).toBeGreaterThan(3); // a report per page of 25
    expect(progress.every(([, total]) => total === head)).toBe(true);
    expect(progress.map(([done]) => done)).toEqual(
      [...progress.map(([done]) => done)].sort((a, b) => a - b),
    );
  });

  it('leaves checkpoints at the head so runners start without re-applying', async () => {
    const store = newStore();
    await rebuildProjections(events, store, [usersProjection(), statsProjection()]);
    const applied: RecordedEvent[] = [];
    const host = newHost(store, [
      usersProjection({ onApply: (e) => applied.push(e) }),
      statsProjection({ onApply: (e) => applied.push(e) }),
    ]);
    await host.start();
    expect(applied).toEqual([]);
    const { position } = await append(events, 'log-1', 'RequestLogged', {
      model: 'model-0',
      tokens: 1,
    });
    expect(await host.waitFor(position)).toBe(true);
    expect(applied.map((e) => e.type)).toEqual(['RequestLogged']);
  });

  it('an interrupted rebuild is finished by the runners from its last page', async () => {
    const reference = newStore();
    await newHost(reference).start();

    const store = newStore();
    let seen = 0;
    const crashing = usersProjection({
      onApply: () => {
        if (++seen === 60) throw new Error('power cut');
      },
    });
    await expect(
      rebuildProjections(events, store, [crashing, statsProjection()], { batchSize: 20 }),
    ).rejects.toThrow('power cut');
    expect(await store.collection(CHECKPOINTS).count()).toBe(2); // pages before the failure are committed

    await newHost(store).start();
    expect(await snapshot(store, sampleCollections)).toEqual(
      await snapshot(reference, sampleCollections),
    );
  });

  it("builds the replayed collections' indexes after their rows: same documents, answers, checkpoints", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-rebuild-'));
    const onFile = (name: string) => {
      const store = new SqliteReadStore(join(dir, name), { readers: 1 });
      stores.push(store);
      return store;
    };
    const indexes = (name: string) => {
      const db = new Database(join(dir, name), { readonly: true });
      const rows = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ix_%'`)
        .all() as Array<{ name: string }>;
      db.close();
      return rows.map((row) => row.name).sort();
    };
    const WANTED = ['ix_test_request_logs__model_a', 'ix_test_users__name_a'];
    const state = async (store: ReadStore) => ({
      documents: await snapshot(store, sampleCollections),
      byModel: await store.collection('test_request_logs').find({ model: 'model-1' }),
      checkpoints: await store.collection(CHECKPOINTS).find({}, { sort: { _id: 1 } }),
    });
    try {
      const plain = onFile('plain.sqlite');
      const projections = [usersProjection(), statsProjection()];
      await rebuildProjections(events, plain, projections, { deferIndexes: false, batchSize: 30 });
      const during: string[][] = [];
      const deferred = onFile('deferred.sqlite');
      await rebuildProjections(events, deferred, projections, {
        batchSize: 30,
        onProgress: () => during.push(indexes('deferred.sqlite')),
        onBuildingIndexes: () => during.push(['building']),
      });
      expect(during.pop()).toEqual(['building']); // once, after the last page
      expect(during.length).toBeGreaterThan(3);
      expect(during.every((names) => names.length === 0)).toBe(true);
      expect(indexes('deferred.sqlite')).toEqual(WANTED);
      expect(indexes('plain.sqlite')).toEqual(WANTED);
      const expected = await state(plain);
      expect(expected.byModel.length).toBeGreaterThan(0);
      expect(await state(deferred)).toEqual(expected);
    } finally {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('handles an empty log', async () => {
    events = SqliteEventStore.open(':memory:');
    const progress: Array<[number, number]> = [];
    const result = await rebuildProjections(events, newStore(), [usersProjection()], {
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect(result).toEqual({ events: 0, applied: { test_users: 0 }, position: null, inLane: [] });
    expect(progress).toEqual([[0, 0]]);
  });
});

describe('formatProgressBar', () => {
  it('draws a bar with percentage and counts', () => {
    expect(formatProgressBar(0, 200, 10)).toBe('[..........]   0% 0/200');
    expect(formatProgressBar(50, 200, 10)).toBe('[###.......]  25% 50/200');
    expect(formatProgressBar(200, 200, 10)).toBe('[##########] 100% 200/200');
    expect(formatProgressBar(0, 0)).toBe(`[${'#'.repeat(30)}] 100% 0/0`);
  });
});
