import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type Position } from '@tollgate/event-store';
import { SqliteReadStore, type Projection } from '@tollgate/read-store';
import { ElectedProjections } from './elected-projections';
import { FollowerProjections } from './follower-projections';
import { type LockHolder, spawnLockHolder } from './lock-holder.fixture';
import { LockElection } from './lock-election';
import { readProjectorHead } from './projector-head';
import { RecordingProjectionHost } from './recording-projection-host';

jest.setTimeout(30_000);

const PROJECTIONS: Projection[] = [
  {
    name: 'first',
    version: 1,
    collections: [{ name: 'first_docs' }],
    eventTypes: ['A'],
    apply: (event, session) => session.collection('first_docs').put({ _id: event.id }),
  },
];

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ElectedProjections', () => {
  let dir: string;
  let events: SqliteEventStore;
  let read: SqliteReadStore;
  let holder: LockHolder;
  let election: LockElection;
  let projections: ElectedProjections;
  const fail = (_name: string, error: Error) => {
    throw error;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-elected-'));
    events = SqliteEventStore.open(join(dir, 'events.sqlite'));
    read = new SqliteReadStore(join(dir, 'read.sqlite'));
    holder = spawnLockHolder('election', join(dir, 'projector.lock'));
    await holder.next((line) => line['won'] === true);
    election = new LockElection(join(dir, 'projector.lock'), (error) => fail('', error), 50);
    election.start();
    const follower = new FollowerProjections(
      events,
      read,
      { register: () => undefined },
      PROJECTIONS,
      { log: () => undefined, warn: () => undefined, onError: fail },
    );
    projections = new ElectedProjections(
      () => follower,
      election,
      () => new RecordingProjectionHost(events, read, PROJECTIONS, { onError: fail }),
      { log: () => undefined, error: (line) => fail('', new Error(line)) },
    );
  });
  afterEach(async () => {
    await projections.stop();
    await election.release();
    await holder.kill();
    await events.close();
    await read.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows until the holder is killed, then projects, keeping its listeners', async () => {
    await projections.start();
    expect(election.held).toBe(false);
    const applied: string[] = [];
    projections.onApplied((name, batch) => applied.push(`${name}:${batch.length}`));
    let advances = 0;
    projections.onAdvance(() => (advances += 1));

    const { position } = await events.append(
      'a-1',
      [{ id: randomUUID(), type: 'A', data: {} }],
      'any',
    );
    expect(await projections.waitFor(position, 50)).toBe(false);

    await holder.kill();
    await until(() => projections.hasReached(position));
    expect(election.held).toBe(true);
    expect(applied).toEqual(['first:1']);
    expect(advances).toBeGreaterThan(0);
    expect(await read.collection('first_docs').count()).toBe(1);
    // The new projector records its head for the followers.
    await until(async () => samePosition(await readProjectorHead(read), position));
  });
});

const samePosition = (a: Position | null, b: Position) => a !== null && a.commit === b.commit;
