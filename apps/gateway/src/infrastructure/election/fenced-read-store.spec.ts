import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { ProjectionHost, SqliteReadStore, type Projection } from '@tollgate/read-store';
import { FencedReadStore } from './fenced-read-store';
import { LeaseLostError } from './lease.port';
import { MemoryLease } from './memory-lease';

const TTL = 1000;

const PROJECTIONS: Projection[] = [
  {
    name: 'items',
    version: 1,
    collections: [{ name: 'items' }],
    eventTypes: ['ItemAdded'],
    apply: (event, session) => session.collection('items').put({ _id: event.id }),
  },
];

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('FencedReadStore: a stale projector is refused', () => {
  let dir: string;
  let events: SqliteEventStore;
  let read: SqliteReadStore;
  let now: number;
  let lease: MemoryLease;
  const hosts: ProjectionHost[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-fence-'));
    events = SqliteEventStore.open(join(dir, 'events.sqlite'));
    read = new SqliteReadStore(join(dir, 'read.sqlite'));
    now = 0;
    lease = new MemoryLease(() => now);
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.stop();
    await events.close();
    await read.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const add = async () =>
    (
      await events.append(
        `item-${randomUUID()}`,
        [{ id: randomUUID(), type: 'ItemAdded', data: {} }],
        'any',
      )
    ).position;

  /** One machine's projector: its lease tenure, its fenced store, its host. */
  async function projector(holder: string) {
    const grant = await lease.acquire('projector', holder, TTL);
    if (!grant) throw new Error(`${holder} was not granted the lease`);
    const refused: LeaseLostError[] = [];
    const store = new FencedReadStore(
      read,
      'projector',
      () => grant.token,
      (e) => refused.push(e),
    );
    await store.raise();
    const host = new ProjectionHost(events, store, PROJECTIONS, {
      onError: () => undefined,
      retryDelayMs: 60_000,
    });
    hosts.push(host);
    await host.start();
    return { host, refused, store };
  }

  it("refuses the old holder's batch once another holder raised the fence; its writes do not land", async () => {
    const a = await projector('a');
    const first = await add();
    expect(await a.host.waitFor(first, 2000)).toBe(true);
    expect(await read.collection('items').count()).toBe(1);

    // Machine a goes silent past its ttl; machine b takes the lease and raises the fence.
    now += TTL;
    const b = await projector('b');
    const second = await add();

    await until(() => a.refused.length > 0);
    expect(a.refused[0]).toBeInstanceOf(LeaseLostError);
    expect(a.host.hasReached(second)).toBe(false);
    expect(await b.host.waitFor(second, 2000)).toBe(true);
    // Each event landed once, through the current holder only.
    expect(await read.collection('items').count()).toBe(2);
  });

  it('refuses a direct transaction of a stale token and leaves the store untouched', async () => {
    const a = await projector('a');
    now += TTL;
    await projector('b');
    await expect(
      a.store.transaction((session) => session.collection('items').put({ _id: 'stale' })),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await read.collection('items').get('stale')).toBeNull();
  });

  it("refuses a raise by an older token after a newer one's", async () => {
    const staleGrant = await lease.acquire('projector', 'a', TTL);
    now += TTL;
    await projector('b');
    const refused: LeaseLostError[] = [];
    const stale = new FencedReadStore(
      read,
      'projector',
      () => staleGrant!.token,
      (e) => refused.push(e),
    );
    await expect(stale.raise()).rejects.toBeInstanceOf(LeaseLostError);
    expect(refused).toHaveLength(1);
  });
});
