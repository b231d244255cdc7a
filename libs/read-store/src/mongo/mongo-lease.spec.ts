import { fakeLeaseCollection } from '../testing/fake-lease-collection';
import { MongoLease } from './mongo-lease';

const TTL = 1000;

describe('MongoLease (over an in-process leases collection)', () => {
  let serverNow: number;
  let lease: MongoLease;

  beforeEach(() => {
    serverNow = 1_000_000;
    lease = new MongoLease(fakeLeaseCollection(() => serverNow));
  });

  it('grants a free role once; a second holder is refused while the lease lives', async () => {
    const first = await lease.acquire('projector', 'a', TTL);
    const second = await lease.acquire('projector', 'b', TTL);
    expect(first).toEqual({ token: 1 });
    expect(second).toBeNull();
    expect(await lease.holderOf('projector')).toBe('a');
  });

  it('lets another holder take an expired role, with a higher token; the stale renewal fails', async () => {
    await lease.acquire('scheduler', 'a', TTL);
    serverNow += TTL;
    const taken = await lease.acquire('scheduler', 'b', TTL);
    expect(taken).toEqual({ token: 2 });
    expect(await lease.renew('scheduler', 'a', 1, TTL)).toBe(false);
    expect(await lease.renew('scheduler', 'b', 2, TTL)).toBe(true);
  });

  it('a renewal pushes the expiry on the server clock', async () => {
    await lease.acquire('projector', 'a', TTL);
    serverNow += TTL - 1;
    await lease.renew('projector', 'a', 1, TTL);
    serverNow += TTL - 1;
    expect(await lease.acquire('projector', 'b', TTL)).toBeNull();
    expect(await lease.holderOf('projector')).toBe('a');
  });

  it('a released role is free at once', async () => {
    await lease.acquire('projector', 'a', TTL);
    await lease.release('projector', 'a', 1);
    expect(await lease.holderOf('projector')).toBeNull();
    expect(await lease.acquire('projector', 'b', TTL)).toEqual({ token: 2 });
  });
});
