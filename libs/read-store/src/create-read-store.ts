import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadStore } from './read-store.port';
import { LIVE_PAGE_CACHE_KIB, SqliteReadStore } from './sqlite/sqlite-read-store';

export interface ReadStoreConfig {
  /** READ_STORE_URL: `mongodb://…` or `mongodb+srv://…`; empty means the embedded SQLite store. */
  readonly readStoreUrl?: string;
  /** DATA_DIR: the SQLite file lives at `<dataDir>/read.sqlite` (READ_STORE_FILE). */
  readonly dataDir: string;
  /** READ_STORE_ALLOW_STANDALONE=on: accept a MongoDB server without transactions (guarded batches). */
  readonly allowStandalone?: boolean;
  /**
   * A serving gateway or its projector child, not a CLI's rebuild or import: the embedded store's
   * write connection keeps a small page cache (LIVE_PAGE_CACHE_KIB) and its statement journals in
   * memory (SqliteReadStoreOptions.journalsInMemory).
   */
  readonly serving?: boolean;
}

/** The embedded read store's file in DATA_DIR. */
export const READ_STORE_FILE = 'read.sqlite';

export async function createReadStore(config: ReadStoreConfig): Promise<ReadStore> {
  const url = config.readStoreUrl?.trim();
  if (url) {
    // A typo must not silently fall back to a local file.
    if (!/^mongodb(\+srv)?:\/\//.test(url))
      throw new Error('READ_STORE_URL must start with mongodb:// or mongodb+srv://');
    // Loaded only when configured: the driver is ~20 MiB a process that never uses it.
    const { connectMongo } = await import('./mongo/connect-mongo');
    return connectMongo(url, { allowStandalone: config.allowStandalone === true });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteReadStore(
    join(config.dataDir, READ_STORE_FILE),
    config.serving ? { pageCacheKiB: LIVE_PAGE_CACHE_KIB, journalsInMemory: true } : {},
  );
}
