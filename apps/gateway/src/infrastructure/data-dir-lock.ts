import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { lockExclusively, lockShared } from './sqlite-file-lock';

/**
 * Exclusive: one plain gateway, or a CLI (import, rebuild, option:set, ledger:verify). Shared:
 * any number of gateways with SCALE_OUT=on at once (docs/scale-out.md).
 */
export type DataDirLockMode = 'exclusive' | 'shared';

/**
 * Who may use DATA_DIR's embedded stores: a process alone (exclusive) keeps its own in-memory stream
 * states, caches and sequences, which another process beside it would contradict; scale-out
 * gateways (shared) are built to share it, but never with a process that counts on being alone.
 * The lock is on DATA_DIR/gateway.lock, held for the life of the process (see sqlite-file-lock).
 */
export class DataDirLock {
  private constructor(private readonly db: Database.Database) {}

  static acquire(dataDir: string, mode: DataDirLockMode = 'exclusive'): DataDirLock {
    const file = join(dataDir, 'gateway.lock');
    const db = mode === 'shared' ? lockShared(file) : lockExclusively(file);
    if (!db) throw new Error(inUseMessage(dataDir, mode));
    return new DataDirLock(db);
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}

function inUseMessage(dataDir: string, mode: DataDirLockMode): string {
  return mode === 'shared'
    ? `DATA_DIR ${dataDir} is in use by another Tollgate process that needs it alone (a gateway without SCALE_OUT=on, or a CLI such as import or projections:rebuild): stop it first`
    : `DATA_DIR ${dataDir} is in use by another Tollgate process (a gateway, or gateways with SCALE_OUT=on): stop it first, or run several gateways with SCALE_OUT=on (docs/scale-out.md) or against EventStoreDB and MongoDB (EVENT_STORE_URL, READ_STORE_URL)`;
}
