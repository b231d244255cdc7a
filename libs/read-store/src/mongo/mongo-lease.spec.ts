import { randomUUID } from 'node:crypto';
import { fakeLeaseCollection } from '../testing/fake-lease-collection';
import { MongoLease, connectMongoLease } from './mongo-lease';

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

// The same rules on a real server (READ_STORE_URL, see docs/engines.md): the update pipeline with
// $$NOW, the upsert race on _id. Roles are random so a shared database is not disturbed.
const mongoUrl = process.env['READ_STORE_URL'];
const describeIfMongo = mongoUrl ? describe : describe.skip;

describeIfMongo('MongoLease against READ_STORE_URL', () => {
  const SHORT_TTL = 400;
  let connection: Awaited<ReturnType<typeof connectMongoLease>>;
  let role: string;

  beforeAll(async () => {
    connection = await connectMongoLease(mongoUrl!);
  });
  afterAll(async () => {
    await connection.close();
  });
  beforeEach(() => {
    role = `test-${randomUUID()}`;
  });

  it('grants a free role to one of two racing holders, then refuses the other', async () => {
    const grants = await Promise.all([
      connection.lease.acquire(role, 'a', 60_000),
      connection.lease.acquire(role, 'b', 60_000),
    ]);
    expect(grants.filter((g) => g !== null)).toEqual([{ token: 1 }]);
    expect(await connection.lease.holderOf(role)).toBe(grants[0] ? 'a' : 'b');
  });

  it('lets another holder take an expired role with a higher token; the stale renewal fails', async () => {
    expect(await connection.lease.acquire(role, 'a', SHORT_TTL)).toEqual({ token: 1 });
    await new Promise((resolve) => setTimeout(resolve, SHORT_TTL + 200));
    expect(await connection.lease.acquire(role, 'b', 60_000)).toEqual({ token: 2 });
    expect(await connection.lease.renew(role, 'a', 1, 60_000)).toBe(false);
    await connection.lease.release(role, 'b', 2);
    expect(await connection.lease.holderOf(role)).toBeNull();
  });
});
