import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * One gateway process per DATA_DIR: two processes on one embedded store would each keep their own
 * in-memory stream states, caches and sequences and disagree. The lock is an exclusive SQLite lock
 * on DATA_DIR/gateway.lock held for the life of the process; the operating system drops it when
 * the process ends, even by kill -9, so a crash never leaves a stale lock behind.
 */
export class DataDirLock {
  private constructor(private readonly db: Database.Database) {}

  static acquire(dataDir: string): DataDirLock {
    const db = new Database(join(dataDir, 'gateway.lock'), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      // The first write under EXCLUSIVE locking mode takes the lock and keeps it until close.
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
      return new DataDirLock(db);
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY')
        throw new Error(
          `DATA_DIR ${dataDir} is in use by another Tollgate process: stop it first, or run several processes against EventStoreDB and MongoDB (EVENT_STORE_URL, READ_STORE_URL)`,
        );
      throw error;
    }
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}
