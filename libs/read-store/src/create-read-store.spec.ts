import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadStore } from './create-read-store';
import { SqliteReadStore } from './sqlite/sqlite-read-store';
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
