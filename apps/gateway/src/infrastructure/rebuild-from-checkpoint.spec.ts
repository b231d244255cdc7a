import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  READ_STORE_FILE,
  rebuildProjections,
  SqliteReadStore,
  takeReadCheckpoint,
} from '@tollgate/read-store';
import {
  append,
  sampleCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
} from '@tollgate/read-store/testing/sample-projections';
import { READ_CHECKPOINTS_DIR } from './read-checkpoint-schedule';
import { planRebuild, restoreForRebuild, restoreLostReadStore } from './rebuild-from-checkpoint';

describe('projections:rebuild from a read-model checkpoint', () => {
  let dataDir: string;
  let events: EventStore;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const projections = () => [usersProjection(), statsProjection()];
  const LATER = 12;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rebuild-checkpoint-'));
    lines.length = 0;
    events = SqliteEventStore.open(':memory:');
    await seedLog(events, 6, 4);
    // The gateway projects, takes a checkpoint, goes on with LATER more events, then stops.
    const store = new SqliteReadStore(join(dataDir, READ_STORE_FILE));
    const host = new ProjectionHost(events, store, projections());
    await host.start();
    await takeReadCheckpoint(store, join(dataDir, READ_CHECKPOINTS_DIR));
    for (let i = 0; i < LATER; i++)
      await append(events, `log-${i}`, 'RequestLogged', { model: 'model-1', tokens: i });
    expect(await host.waitFor((await events.headPosition())!)).toBe(true);
    await host.stop();
    await store.close();
  });
  afterEach(async () => {
    await events.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function rebuild(fromScratch: boolean, list = projections()) {
    const head = await events.headPosition();
    const start = await restoreForRebuild({ dataDir }, fromScratch, log, head);
    const plan = planRebuild(start, list, await events.headPosition(), true);
    lines.push(plan.line);
    const store = new SqliteReadStore(join(dataDir, READ_STORE_FILE));
    const result = await rebuildProjections(events, store, list, { resume: plan.resume });
    const docs = await snapshot(store, sampleCollections);
    await store.close();
    return { result, docs };
  }

  it('starts from the checkpoint and says how many events it replays', async () => {
    const resumed = await rebuild(false);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Rebuilding from checkpoint at position \\d+/\\d+ taken \\S+ \\(${LATER} events to replay\\)$`,
        ),
      ),
    ]);
    expect(resumed.result.events).toBe(LATER);
    const scratch = await rebuild(true);
    expect(lines[1]).toBe('Rebuilding from scratch (--from-scratch)');
    expect(scratch.result.events).toBeGreaterThan(LATER * 4);
    expect(resumed.docs).toEqual(scratch.docs);
  });

  it('names the projections a version bump sends back to the start', async () => {
    const bumped = [usersProjection(), statsProjection({ version: 2 })];
    const { result } = await rebuild(false, bumped);
    expect(lines[0]).toMatch(/; from the start, new or of another version: test_stats$/);
    expect(result.applied['test_users']).toBe(0);
    expect(result.applied['test_stats']).toBe(4 * 6 + LATER);
  });

  it('passes over a damaged checkpoint and rebuilds from scratch without another', async () => {
    const dir = join(dataDir, READ_CHECKPOINTS_DIR);
    const name = readdirSync(dir).find((n) => n.endsWith('.json'))!;
    const manifest = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { file: string };
    writeFileSync(join(dir, manifest.file), 'not a database');
    const { result } = await rebuild(false);
    expect(lines).toEqual([
      `Skipping checkpoint ${manifest.file.replace('.sqlite', '.json')}: ${manifest.file} does not match the SHA-256 in its manifest`,
      `Rebuilding from scratch (no usable checkpoint in ${dir})`,
    ]);
    expect(result.events).toBeGreaterThan(LATER * 4);
  });

  it('refuses a checkpoint ahead of the event log (another log in DATA_DIR)', async () => {
    const dir = join(dataDir, READ_CHECKPOINTS_DIR);
    const shorter = SqliteEventStore.open(':memory:');
    await seedLog(shorter, 2, 1);
    const head = await shorter.headPosition();
    await shorter.close();
    const start = await restoreForRebuild({ dataDir }, false, log, head);
    expect(start.checkpoint).toBeNull();
    expect(lines).toEqual([
      expect.stringMatching(
        /^Skipping checkpoint read-\S+\.json: it is ahead of the event log \(head \d+\/\d+\): taken from another log$/,
      ),
    ]);
    expect(planRebuild(start, projections(), head, true).line).toBe(
      `Rebuilding from scratch (no usable checkpoint in ${dir})`,
    );
  });

  it('a MongoDB read store is rebuilt from scratch', async () => {
    const start = await restoreForRebuild(
      { dataDir, readStoreUrl: 'mongodb://db/t' },
      false,
      log,
      null,
    );
    expect(planRebuild(start, projections(), null, true).line).toBe(
      'Rebuilding from scratch (a MongoDB read store has no read-model checkpoints)',
    );
  });

  it('a start without the read-model database restores the newest checkpoint, and only then', async () => {
    const file = join(dataDir, READ_STORE_FILE);
    const head = await events.headPosition();
    expect(await restoreLostReadStore({ dataDir }, head, log)).toBeNull();
    expect(
      await restoreLostReadStore({ dataDir, readStoreUrl: 'mongodb://db/t' }, head, log),
    ).toBeNull();
    rmSync(file);
    const restored = await restoreLostReadStore({ dataDir }, head, log);
    expect(restored).not.toBeNull();
    expect(existsSync(file)).toBe(true);
    expect(lines).toEqual([
      `No read-model database: starting from the checkpoint at position ${restored!.position}`,
    ]);
    // The runners catch up from the checkpoint: the LATER events, then the same read models.
    const store = new SqliteReadStore(file);
    const host = new ProjectionHost(events, store, projections());
    await host.start();
    expect(await host.waitFor(head!)).toBe(true);
    const caughtUp = await snapshot(store, sampleCollections);
    await host.stop();
    await store.close();
    expect(caughtUp).toEqual((await rebuild(true)).docs);
  });
});
