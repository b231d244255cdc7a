import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { SqliteReadStore, type Projection } from '@tollgate/read-store';
import { projectorReadStore } from './create-projections';
import { ElectedProjections } from './elected-projections';
import { LeaseElection } from './election/lease-election';
import type { LeasePort } from './election/lease.port';
import { MemoryLease } from './election/memory-lease';
import { FollowerProjections } from './follower-projections';
import { RecordingProjectionHost } from './recording-projection-host';

jest.setTimeout(15_000);

const TTL = 300;

const PROJECTIONS: Projection[] = [
  {
    name: 'items',
    version: 1,
    collections: [{ name: 'items' }],
    eventTypes: ['ItemAdded'],
    apply: (event, session) => session.collection('items').put({ _id: event.id }),
  },
];

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A machine's link to the lease engine; `cut()` leaves its calls unanswered (a paused machine). */
function link(engine: LeasePort): LeasePort & { cut(): void } {
  let cut = false;
  const hang = new Promise<never>(() => undefined);
  return {
    acquire: (...a) => (cut ? hang : engine.acquire(...a)),
    renew: (...a) => (cut ? hang : engine.renew(...a)),
    release: (...a) => (cut ? hang : engine.release(...a)),
    holderOf: (...a) => (cut ? hang : engine.holderOf(...a)),
    cut: () => (cut = true),
  };
}

describe('ElectedProjections on a lease (two machines, one shared read store)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let lease: MemoryLease;
  const closing: (() => Promise<void>)[] = [];
  const fail = (_name: string, error: Error) => {
    throw error;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-elected-lease-'));
    events = SqliteEventStore.open(join(dir, 'events.sqlite'));
    lease = new MemoryLease();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function machine(name: string) {
    const read = new SqliteReadStore(join(dir, 'read.sqlite'));
    const port = link(lease);
    const election = new LeaseElection(port, 'projector', name, {
      ttlMs: TTL,
      onError: (error) => fail('', error),
    });
    const errors: string[] = [];
    const projections: ElectedProjections = new ElectedProjections(
      () =>
        new FollowerProjections(events, read, { register: () => undefined }, PROJECTIONS, {
          log: () => undefined,
          warn: () => undefined,
          onError: () => undefined,
        }),
      election,
      async () => {
        const fenced = projectorReadStore(read, election, () =>
          projections.stepDown('write refused'),
        );
        await fenced.raise();
        return new RecordingProjectionHost(events, fenced.store, PROJECTIONS, {
          onError: () => undefined,
        });
      },
      { log: () => undefined, error: (line) => errors.push(line) },
    );
    closing.push(async () => {
      await projections.stop();
      await election.release().catch(() => undefined);
      await read.close();
    });
    return { election, projections, port, read, errors };
  }

  const add = async () =>
    (
      await events.append(
        `item-${randomUUID()}`,
        [{ id: randomUUID(), type: 'ItemAdded', data: {} }],
        'any',
      )
    ).position;

  it('projects on one machine only; when it goes silent the other takes over and it steps down', async () => {
    const a = machine('a');
    a.election.start();
    await a.projections.start();
    const b = machine('b');
    b.election.start();
    await b.projections.start();
    // One of the two holds the lease. A starved test worker may let the first lease lapse before
    // the second machine starts, so which one leads is read, not assumed.
    await until(() => a.election.held !== b.election.held);
    const [leader, follower] = a.election.held ? [a, b] : [b, a];

    const first = await add();
    await until(() => leader.projections.hasReached(first));
    expect(await follower.projections.waitFor(first, 2000)).toBe(true); // it follows the head

    leader.port.cut();
    await until(() => follower.election.held && !leader.election.held);
    // The silent one stopped projecting and follows again (it says so); the other writes now.
    await until(() => leader.errors.some((line) => line.includes('follows again')));
    const second = await add();
    await until(() => follower.projections.hasReached(second));
    expect(await leader.projections.waitFor(second, 2000)).toBe(true);
    expect(await follower.read.collection('items').count()).toBe(2);
  });
});
