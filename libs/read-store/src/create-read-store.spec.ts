import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { createReadStore } from './create-read-store';
import { LIVE_PAGE_CACHE_KIB, SqliteReadStore } from './sqlite/sqlite-read-store';
import { closedPort } from './testing/closed-port';

describe('createReadStore', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'create-read-store-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens <dataDir>/read.sqlite without a URL, creating the directory', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const store = await createReadStore({ dataDir, readStoreUrl: '' });
    try {
      expect(store).toBeInstanceOf(SqliteReadStore);
      expect(existsSync(join(dataDir, 'read.sqlite'))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("keeps a small write page cache for a serving process, SQLite's for a CLI", async () => {
    const cacheOf = (store: unknown) =>
      (store as { writer: Database.Database }).writer.pragma('cache_size', { simple: true });
    const serving = await createReadStore({ dataDir: join(dir, 'serving'), serving: true });
    const cli = await createReadStore({ dataDir: join(dir, 'cli') });
    try {
      // Negative: KiB, not pages.
      expect(cacheOf(serving)).toBe(-LIVE_PAGE_CACHE_KIB);
      // better-sqlite3's default, which a rebuild's index builds sort in.
      expect(cacheOf(cli)).toBe(-16000);
    } finally {
      await serving.close();
      await cli.close();
    }
  });

  it('refuses a URL that is not MongoDB instead of silently using a file', async () => {
    await expect(createReadStore({ dataDir: dir, readStoreUrl: 'postgres://x' })).rejects.toThrow(
      /READ_STORE_URL/,
    );
  });

  it('connects to MongoDB for a mongodb:// URL (failing fast when unreachable)', async () => {
    const port = await closedPort();
    await expect(
      createReadStore({ dataDir: dir, readStoreUrl: `mongodb://127.0.0.1:${port}` }),
    ).rejects.toThrow(`MongoDB unreachable at mongodb://127.0.0.1:${port}`);
  });
});
