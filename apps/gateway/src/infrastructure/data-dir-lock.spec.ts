import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock } from './data-dir-lock';
import { type LockHolder, spawnLockHolder } from './lock-holder.fixture';

jest.setTimeout(30_000);

describe('DataDirLock across OS processes', () => {
  let dataDir: string;
  const holders: LockHolder[] = [];
  const locks: DataDirLock[] = [];
  const hold = (mode: 'exclusive' | 'shared') => {
    const holder = spawnLockHolder('data-dir', dataDir, mode);
    holders.push(holder);
    return holder;
  };
  const acquire = (mode: 'exclusive' | 'shared') => {
    const lock = DataDirLock.acquire(dataDir, mode);
    locks.push(lock);
    return lock;
  };
  const locked = (line: Record<string, unknown>) => line['locked'] === true;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-data-dir-lock-'));
  });
  afterEach(async () => {
    for (const lock of locks.splice(0)) lock.release();
    await Promise.all(holders.splice(0).map((h) => h.kill()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets any number of shared holders in at once', async () => {
    await hold('shared').next(locked);
    await hold('shared').next(locked);
    expect(() => acquire('shared')).not.toThrow();
  });

  it('refuses an exclusive holder while a shared one holds the lock, and the other way round', async () => {
    await hold('shared').next(locked);
    expect(() => acquire('exclusive')).toThrow(/is in use by another Tollgate process/);

    const other = mkdtempSync(join(tmpdir(), 'tollgate-data-dir-lock-'));
    try {
      const exclusive = spawnLockHolder('data-dir', other, 'exclusive');
      holders.push(exclusive);
      await exclusive.next(locked);
      expect(() => DataDirLock.acquire(other, 'shared')).toThrow(/needs it alone/);
      const second = spawnLockHolder('data-dir', other, 'shared');
      holders.push(second);
      await second.next((line) => typeof line['error'] === 'string');
      expect(second.lines[0]!['error']).toMatch(/is in use by another Tollgate process/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps two exclusive holders apart, as before', async () => {
    await hold('exclusive').next(locked);
    expect(() => acquire('exclusive')).toThrow(/is in use by another Tollgate process/);
  });

  it('lets a shared holder in once the exclusive one is killed with SIGKILL, and the other way round', async () => {
    const exclusive = hold('exclusive');
    await exclusive.next(locked);
    await exclusive.kill();
    const shared = acquire('shared');

    const child = hold('shared');
    await child.next(locked);
    shared.release();
    expect(() => acquire('exclusive')).toThrow(/in use/);
    await child.kill();
    expect(() => acquire('exclusive')).not.toThrow();
  });

  it('is free again after release in this process', () => {
    acquire('exclusive').release();
    acquire('shared').release();
    expect(() => acquire('exclusive')).not.toThrow();
  });
});
