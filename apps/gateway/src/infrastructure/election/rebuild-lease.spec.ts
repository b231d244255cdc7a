import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '@tollgate/read-store';
import { LEASE_FENCES } from './fenced-read-store';
import { MemoryLease } from './memory-lease';
import { ProjectorLeaseHeld, takeProjectorLease } from './rebuild-lease';

describe('takeProjectorLease (projections:rebuild on a shared read store)', () => {
  let dir: string;
  let read: SqliteReadStore;
  let lease: MemoryLease;
  const fail = (error: Error) => {
    throw error;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-rebuild-lease-'));
    read = new SqliteReadStore(join(dir, 'read.sqlite'));
    lease = new MemoryLease();
  });
  afterEach(async () => {
    await read.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses while a live projector holds the lease, naming it', async () => {
    await lease.acquire('projector', 'host-1:4242:abc', 60_000);
    const taking = takeProjectorLease(lease, read, fail);
    await expect(taking).rejects.toBeInstanceOf(ProjectorLeaseHeld);
    await expect(taking).rejects.toThrow(/host-1:4242:abc.*stop the projectors/);
  });

  it('takes a free lease, raises the fence to its token, and frees it when done', async () => {
    const taken = await takeProjectorLease(lease, read, fail);
    await taken.store.transaction((session) => session.collection(LEASE_FENCES).count());
    const fence = await read
      .collection<{ _id: string; token: number }>(LEASE_FENCES)
      .get('projector');
    expect(fence?.token).toBe(1);
    expect(await lease.holderOf('projector')).not.toBeNull();

    await taken.release();
    expect(await lease.holderOf('projector')).toBeNull();
    // A projector starting after the rebuild gets a higher token: the rebuild's is stale now.
    expect(await lease.acquire('projector', 'projector-2', 60_000)).toEqual({ token: 2 });
  });
});
