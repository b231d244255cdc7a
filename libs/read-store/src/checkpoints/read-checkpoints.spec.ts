import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, serializePosition, type EventStore } from '@tollgate/event-store';
import { ProjectionHost } from '../projection/projection-host';
import type { Projection } from '../projection/projection';
import { rebuildProjections } from '../projection/rebuild';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import {
  append,
  sampleCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
} from '../testing/sample-projections';
import { listReadCheckpoints, resumePoints } from './read-checkpoint-manifest';
import { restoreNewestReadCheckpoint } from './restore-read-checkpoint';
import { takeReadCheckpoint } from './take-read-checkpoint';

const projections = (statsVersion = 1): Projection[] => [
  usersProjection(),
  statsProjection({ version: statsVersion }),
];

/** M more events after the checkpoint, every one of a type some projection handles. */
async function appendMore(events: EventStore, m: number): Promise<void> {
  for (let i = 0; i < m; i++)
    if (i % 2 === 0)
      await append(events, `billing-${i % 5}`, 'QuotaAdded', { userId: `${i % 5}`, amount: i });
    else await append(events, `log-${i}`, 'RequestLogged', { model: `model-${i % 3}`, tokens: i });
}

describe('read-model checkpoints', () => {
  let dir: string;
  let checkpoints: string;
  let readPath: string;
  let events: EventStore;
  const skipped: string[] = [];
  const onSkip = (name: string, why: string) => skipped.push(`${name}: ${why}`);
  const M = 30;

  /** A live read store checkpointed after the seeded log, then M more events applied to it. */
  async function liveStoreWithCheckpoint(): Promise<void> {
    const store = new SqliteReadStore(readPath);
    const host = new ProjectionHost(events, store, projections(), { maxBatchSize: 50 });
    await host.start();
    const manifest = await takeReadCheckpoint(store, checkpoints);
    expect(manifest?.position).toBe(serializePosition((await events.headPosition())!));
    await appendMore(events, M);
    expect(await host.waitFor((await events.headPosition())!)).toBe(true);
    await host.stop();
    await store.close();
  }

  /** What a from-scratch rebuild makes of the whole log. */
  async function fromScratch(list = projections()) {
    const reference = new SqliteReadStore(':memory:');
    const result = await rebuildProjections(events, reference, list);
    const docs = await snapshot(reference, sampleCollections);
    await reference.close();
    return { docs, result };
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-checkpoints-'));
    checkpoints = join(dir, 'checkpoints');
    readPath = join(dir, 'read.sqlite');
    skipped.length = 0;
    events = SqliteEventStore.open(':memory:');
    await seedLog(events, 8, 6); // about 150 events
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a rebuild from the checkpoint replays only the later events and equals a rebuild from scratch', async () => {
    await liveStoreWithCheckpoint();
    const [found] = await listReadCheckpoints(checkpoints);
    const manifest = (await restoreNewestReadCheckpoint(checkpoints, readPath, onSkip))!;
    expect(manifest).toEqual(found!.manifest);
    expect(manifest.projections.map((p) => [p.name, p.version])).toEqual([
      ['test_stats', 1],
      ['test_users', 1],
    ]);

    const store = new SqliteReadStore(readPath);
    const resume = resumePoints(manifest, projections());
    const result = await rebuildProjections(events, store, projections(), { resume });
    const scratch = await fromScratch();
    expect(result.events).toBe(M);
    expect(result.applied).toEqual({ test_users: M / 2, test_stats: M / 2 });
    expect(scratch.result.events).toBeGreaterThan(100); // without a checkpoint: the whole log
    // $inc top-ups: a restored copy that already held the later events would count them twice.
    expect(await snapshot(store, sampleCollections)).toEqual(scratch.docs);
    await store.close();
    expect(skipped).toEqual([]);
  });

  it('a bumped projection version is rebuilt from the start, the others resume', async () => {
    await liveStoreWithCheckpoint();
    const manifest = (await restoreNewestReadCheckpoint(checkpoints, readPath, onSkip))!;
    const bumped = projections(2);
    const resume = resumePoints(manifest, bumped);
    expect([...resume.keys()]).toEqual(['test_users']);

    const store = new SqliteReadStore(readPath);
    const result = await rebuildProjections(events, store, bumped, { resume });
    const scratch = await fromScratch(bumped);
    expect(result.applied['test_users']).toBe(M / 2);
    expect(result.applied['test_stats']).toBe(scratch.result.applied['test_stats']);
    expect(await snapshot(store, sampleCollections)).toEqual(scratch.docs);
    await store.close();
  });

  it('projections at different positions in the copy each resume from their own', async () => {
    const store = new SqliteReadStore(readPath);
    const host = new ProjectionHost(events, store, projections());
    await host.start();
    // Top-ups only: test_users moves on, test_stats keeps its older stored checkpoint.
    const statsAt = (await events.headPosition())!;
    for (let i = 0; i < 6; i++)
      await append(events, `billing-${i}`, 'QuotaAdded', { userId: `${i}`, amount: 100 + i });
    const usersAt = (await events.headPosition())!;
    expect(await host.waitFor(usersAt)).toBe(true);
    const manifest = (await takeReadCheckpoint(store, checkpoints))!;
    expect(manifest.position).toBe(serializePosition(statsAt));
    expect(manifest.projections.find((p) => p.name === 'test_users')?.position).toBe(
      serializePosition(usersAt),
    );
    // Written while the copy is taken: the copy holds them or not, its checkpoints say which.
    const copying = checkpointMeanwhile(store);
    await appendMore(events, M);
    await copying;
    await host.stop();
    await store.close();

    const expected = (await fromScratch()).docs;
    // The newest (taken while events arrived), then the older one (projections apart).
    for (const file of [null, manifest.file]) {
      const restored = (await restoreNewestReadCheckpoint(checkpoints, readPath, onSkip))!;
      if (file) expect(restored.file).toBe(file);
      const rebuilt = new SqliteReadStore(readPath);
      await rebuildProjections(events, rebuilt, projections(), {
        resume: resumePoints(restored, projections()),
      });
      expect(await snapshot(rebuilt, sampleCollections)).toEqual(expected);
      await rebuilt.close();
      rmSync(join(checkpoints, restored.file.replace('.sqlite', '.json')));
    }
  });

  /** A second checkpoint taken while events keep arriving (the newest, so the one restored). */
  async function checkpointMeanwhile(store: SqliteReadStore): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await takeReadCheckpoint(store, checkpoints, { now: () => new Date(Date.now() + 60_000) });
  }

  it('a checkpoint whose file does not match its manifest is skipped for the one before it', async () => {
    const store = new SqliteReadStore(readPath);
    const host = new ProjectionHost(events, store, projections());
    await host.start();
    const older = await takeReadCheckpoint(store, checkpoints, { now: () => new Date(1000) });
    await appendMore(events, 4);
    expect(await host.waitFor((await events.headPosition())!)).toBe(true);
    const newer = await takeReadCheckpoint(store, checkpoints, { now: () => new Date(2000) });
    await host.stop();
    await store.close();
    expect(older!.position).not.toBe(newer!.position);

    const damaged = join(checkpoints, newer!.file);
    const bytes = readFileSync(damaged);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    writeFileSync(damaged, bytes);

    const restored = await restoreNewestReadCheckpoint(checkpoints, readPath, onSkip);
    expect(restored?.file).toBe(older!.file);
    expect(skipped).toEqual([
      `${newer!.file.replace('.sqlite', '.json')}: ${newer!.file} does not match the SHA-256 in its manifest`,
    ]);
  });

  it('keeps the newest two and leaves no temporary file', async () => {
    const store = new SqliteReadStore(readPath);
    const host = new ProjectionHost(events, store, projections());
    await host.start();
    for (const t of [1000, 2000, 3000])
      await takeReadCheckpoint(store, checkpoints, { now: () => new Date(t) });
    await host.stop();
    await store.close();
    const found = await listReadCheckpoints(checkpoints);
    expect(found.map((c) => c.manifest.takenAt)).toEqual([
      new Date(3000).toISOString(),
      new Date(2000).toISOString(),
    ]);
    expect(readdirSync(checkpoints).sort()).toEqual(
      found.flatMap((c) => [c.name, c.manifest.file]).sort(),
    );
  });

  it('takes none before any projection has a checkpoint, and restores none from an empty directory', async () => {
    const store = new SqliteReadStore(readPath);
    expect(await takeReadCheckpoint(store, checkpoints)).toBeNull();
    await store.close();
    expect(await restoreNewestReadCheckpoint(checkpoints, readPath, onSkip)).toBeNull();
    expect(readdirSync(checkpoints)).toEqual([]);
  });
});
