import { SqliteEventStore } from '@tollgate/event-store';
import { EventStoreLease, LEASE_TAKEN, leaseStreamId } from './event-store-lease';
import { LeaseElection } from './lease-election';

const TTL = 1000;

describe('EventStoreLease (over the SQLite event store)', () => {
  let store: SqliteEventStore;
  let clockA: number;
  let clockB: number;
  let a: EventStoreLease;
  let b: EventStoreLease;

  beforeEach(() => {
    store = SqliteEventStore.open(':memory:');
    // Two machines: their own lease objects and clocks, far apart (skew must not matter).
    clockA = 5_000;
    clockB = 9_000_000;
    a = new EventStoreLease(store, { now: () => clockA });
    b = new EventStoreLease(store, { now: () => clockB });
  });
  afterEach(() => store.close());

  it('grants a free role once; the other machine is refused while renewals go on', async () => {
    const taken = await a.acquire('scheduler', 'a', TTL);
    expect(taken).not.toBeNull();
    expect(await b.acquire('scheduler', 'b', TTL)).toBeNull();
    for (let i = 0; i < 3; i += 1) {
      clockB += TTL / 2;
      expect(await a.renew('scheduler', 'a', taken!.token, TTL)).toBe(true);
      expect(await b.acquire('scheduler', 'b', TTL)).toBeNull();
    }
    expect(await b.holderOf('scheduler')).toBe('a');
  });

  it('lets the other machine take over once the stream stood still for the ttl on its clock', async () => {
    const first = await a.acquire('scheduler', 'a', TTL);
    expect(await b.acquire('scheduler', 'b', TTL)).toBeNull(); // first sighting
    clockB += TTL - 1;
    expect(await b.acquire('scheduler', 'b', TTL)).toBeNull();
    clockB += 1;
    const second = await b.acquire('scheduler', 'b', TTL);

    expect(second).not.toBeNull();
    expect(second!.token).toBeGreaterThan(first!.token);
    // The stale holder's renewal meets another revision and fails.
    expect(await a.renew('scheduler', 'a', first!.token, TTL)).toBe(false);
    expect(await a.holderOf('scheduler')).toBe('b');
    const stream = await store.readStream(leaseStreamId('scheduler'));
    expect(stream.filter((e) => e.type === LEASE_TAKEN).map((e) => e.revision)).toEqual([
      first!.token,
      second!.token,
    ]);
  });

  it('frees the role at once on release', async () => {
    const taken = await a.acquire('projector', 'a', TTL);
    await a.release('projector', 'a', taken!.token);
    expect(await b.holderOf('projector')).toBeNull();
    const next = await b.acquire('projector', 'b', TTL);
    expect(next!.token).toBeGreaterThan(taken!.token);
  });

  it('of two machines taking a free role at once, one wins', async () => {
    const results = await Promise.all([
      a.acquire('projector', 'a', TTL),
      b.acquire('projector', 'b', TTL),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('elects one scheduler of two machines, and the other takes over when the holder stops', async () => {
    const ttlMs = 90;
    const fail = (error: Error) => {
      throw error;
    };
    const a = new LeaseElection(new EventStoreLease(store), 'scheduler', 'a', {
      ttlMs,
      onError: fail,
    });
    a.start();
    await until(() => a.held);
    const b = new LeaseElection(new EventStoreLease(store), 'scheduler', 'b', {
      ttlMs,
      onError: fail,
    });
    b.start();
    const first = a.token!;
    // Several renewals later, still a alone.
    await until(async () => (await store.streamRevision(leaseStreamId('scheduler')))! >= first + 3);
    expect(b.held).toBe(false);

    await a.release();
    await until(() => b.held);
    expect(b.token).toBeGreaterThan(first);
    await b.release();
  });
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
