import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectMongo } from './mongo/connect-mongo';
import type { ReadStore } from './read-store.port';
import { SqliteReadStore } from './sqlite/sqlite-read-store';

export interface ReadStoreConfig {
  /** READ_STORE_URL: `mongodb://…` or `mongodb+srv://…`; empty means the embedded SQLite store. */
  readonly readStoreUrl?: string;
  /** DATA_DIR: the SQLite file lives at `<dataDir>/read.sqlite`. */
  readonly dataDir: string;
}

export async function createReadStore(config: ReadStoreConfig): Promise<ReadStore> {
  const url = config.readStoreUrl?.trim();
  if (url) {
    // A typo must not silently fall back to a local file.
    if (!/^mongodb(\+srv)?:\/\//.test(url))
      throw new Error('READ_STORE_URL must start with mongodb:// or mongodb+srv://');
    return connectMongo(url);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteReadStore(join(config.dataDir, 'read.sqlite'));
}
