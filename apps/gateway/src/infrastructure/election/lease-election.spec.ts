import { fakeLeaseCollection } from '@tollgate/read-store/testing/fake-lease-collection';
import { MongoLease } from '@tollgate/read-store/mongo/mongo-lease';
import { LeaseElection } from './lease-election';
import type { LeasePort } from './lease.port';
import { MemoryLease } from './memory-lease';

const TTL = 300;

/**
 * One machine's view of the shared lease engine: `cut()` makes every call hang, as a machine
 * paused or cut off from the engine (it neither renews nor hears back).
 */
function machineLink(engine: LeasePort): LeasePort & { cut(): void } {
  let cut = false;
  const hang = new Promise<never>(() => undefined);
  const call =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      cut ? hang : f(...args);
  return {
    acquire: call((...a: Parameters<LeasePort['acquire']>) => engine.acquire(...a)),
    renew: call((...a: Parameters<LeasePort['renew']>) => engine.renew(...a)),
    release: call((...a: Parameters<LeasePort['release']>) => engine.release(...a)),
    holderOf: call((...a: Parameters<LeasePort['holderOf']>) => engine.holderOf(...a)),
    cut: () => (cut = true),
  };
}

const engines: [string, () => LeasePort][] = [
  ['in memory', () => new MemoryLease(() => Date.now())],
  ['MongoDB (leases collection fake)', () => new MongoLease(fakeLeaseCollection(() => Date.now()))],
];

describe.each(engines)('LeaseElection over the %s lease', (_name, engine) => {
  const fail = (error: Error) => {
    throw error;
  };
  let shared: LeasePort;
  let links: ReturnType<typeof machineLink>[];
  let elections: LeaseElection[];

  const machine = (name: string, role: string) => {
    const link = machineLink(shared);
    links.push(link);
    const election = new LeaseElection(link, role, name, { ttlMs: TTL, onError: fail });
    elections.push(election);
    return { link, election };
  };

  beforeEach(() => {
    jest.useFakeTimers();
    shared = engine();
    links = [];
    elections = [];
  });
  afterEach(async () => {
    for (const election of elections) if (election.held) await election.release();
    jest.useRealTimers();
  });

  it('elects exactly one holder per role among two machines', async () => {
    const a = { projector: machine('a', 'projector'), scheduler: machine('a', 'scheduler') };
    const b = { projector: machine('b', 'projector'), scheduler: machine('b', 'scheduler') };
    for (const election of elections) election.start();
    await jest.advanceTimersByTimeAsync(TTL * 3);

    for (const role of ['projector', 'scheduler'] as const) {
      const held = [a[role].election.held, b[role].election.held];
      expect(held.filter(Boolean)).toHaveLength(1);
      const holder = a[role].election.held ? 'a' : 'b';
      expect(await shared.holderOf(role)).toBe(holder);
    }
  });

  it('hands the role over after the ttl when the holder stops renewing, with a higher token', async () => {
    const a = machine('a', 'projector');
    a.election.start();
    await jest.advanceTimersByTimeAsync(0);
    const b = machine('b', 'projector');
    b.election.start();
    await jest.advanceTimersByTimeAsync(TTL);
    expect(a.election.held).toBe(true);
    expect(b.election.held).toBe(false);
    const firstToken = a.election.token!;
    const lost = jest.fn();
    a.election.onLost(lost);
    const won = jest.fn();
    b.election.onWon(won);

    a.link.cut();
    await jest.advanceTimersByTimeAsync(TTL * 2);

    // The silent holder gave up by its own clock; the other took the role with a higher token.
    expect(lost).toHaveBeenCalledTimes(1);
    expect(a.election.held).toBe(false);
    expect(a.election.confirmed()).toBe(false);
    expect(won).toHaveBeenCalledTimes(1);
    expect(b.election.held).toBe(true);
    expect(b.election.confirmed()).toBe(true);
    expect(b.election.token).toBeGreaterThan(firstToken);
    // The stale holder's token no longer renews.
    expect(await shared.renew('projector', 'a', firstToken, TTL)).toBe(false);
  });

  it('keeps the role while renewals are confirmed, and frees it at once on release', async () => {
    const a = machine('a', 'scheduler');
    a.election.start();
    await jest.advanceTimersByTimeAsync(0);
    const b = machine('b', 'scheduler');
    b.election.start();
    await jest.advanceTimersByTimeAsync(TTL * 5);
    expect(a.election.held).toBe(true);
    expect(b.election.held).toBe(false);

    await a.election.release();
    await jest.advanceTimersByTimeAsync(TTL);
    expect(b.election.held).toBe(true);
  });
});
