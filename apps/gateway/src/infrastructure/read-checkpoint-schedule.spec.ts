import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINTS, listReadCheckpoints, SqliteReadStore } from '@tollgate/read-store';
import { MongoReadStore } from '@tollgate/read-store/mongo/mongo-read-store';
import { ReadCheckpointSchedule, scheduleReadCheckpoints } from './read-checkpoint-schedule';

const HOUR = 3_600_000;

describe('ReadCheckpointSchedule', () => {
  let dir: string;
  let store: SqliteReadStore;
  let clock: number;
  const lines: string[] = [];
  const logger = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-schedule-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.declare([{ name: CHECKPOINTS }]);
    await store.collection(CHECKPOINTS).put({ _id: 'users', position: '7/7', version: 1 });
    clock = Date.parse('2026-01-01T00:00:00Z');
    lines.length = 0;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const schedule = async () => {
    const s = new ReadCheckpointSchedule(
      store,
      join(dir, 'checkpoints'),
      { everyEvents: 100, everyMs: 6 * HOUR },
      logger,
      () => clock,
    );
    await s.ready;
    return s;
  };
  const taken = async () => (await listReadCheckpoints(join(dir, 'checkpoints'))).length;

  it('takes one every N events processed, one at a time', async () => {
    const s = await schedule();
    s.advanced(99);
    await s.settled();
    expect(await taken()).toBe(0);
    s.advanced(100);
    s.advanced(250); // while the first copy runs: not a second one
    await s.settled();
    expect(await taken()).toBe(1);
    expect(lines[0]).toMatch(/^Read-model checkpoint at position 7\/7 \(1 projections, \d+ bytes/);
    clock += 1000;
    s.advanced(250);
    await s.settled();
    expect(await taken()).toBe(2);
  });

  it('takes one after the interval when events came, none when the log was idle', async () => {
    const s = await schedule();
    clock += 6 * HOUR;
    s.advanced(0);
    await s.settled();
    expect(await taken()).toBe(0);
    s.advanced(1);
    await s.settled();
    expect(await taken()).toBe(1);
    // A new process counts the interval from the newest checkpoint on disk, not from its start.
    clock += 5 * HOUR;
    const next = await schedule();
    clock += HOUR;
    next.advanced(1);
    await next.settled();
    expect(await taken()).toBe(2);
  });

  it('is attached only to an embedded read store with READ_CHECKPOINT_EVERY above 0', () => {
    const host = { onAdvance: jest.fn(() => () => undefined), processed: () => 0 };
    const config = { dataDir: dir, readCheckpoints: { everyEvents: 100, everyMs: HOUR } };
    expect(scheduleReadCheckpoints(host, store, config, logger)).not.toBeNull();
    const off = { ...config, readCheckpoints: { everyEvents: 0, everyMs: HOUR } };
    expect(scheduleReadCheckpoints(host, store, off, logger)).toBeNull();
    const mongo = Object.create(MongoReadStore.prototype) as MongoReadStore;
    expect(scheduleReadCheckpoints(host, mongo, config, logger)).toBeNull();
    expect(host.onAdvance).toHaveBeenCalledTimes(1);
  });
});
