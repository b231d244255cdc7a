import Database from 'better-sqlite3';

/** How long a shared holder waits while another one creates the lock file's table. */
const CREATE_BUSY_MS = 250;

const isBusy = (error: unknown): boolean => (error as { code?: string }).code === 'SQLITE_BUSY';

/**
 * Locks held through a small SQLite file (rollback journal, never WAL) for the life of the returned
 * handle: the operating system drops them when the process ends, even by kill -9, so a crash never
 * leaves a stale lock behind. Both answer null when another process holds a conflicting lock.
 *
 * Exclusive: EXCLUSIVE locking mode keeps the lock of the first write until close; that write
 * cannot commit while any other process holds even a SHARED lock.
 */
export function lockExclusively(file: string): Database.Database | null {
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) return null;
    throw error;
  }
}

/**
 * Shared: a read transaction left open keeps a SHARED lock, which any number of processes may hold
 * together and which an exclusive holder excludes (its reads fail with SQLITE_BUSY).
 */
export function lockShared(file: string): Database.Database | null {
  const db = new Database(file, { timeout: CREATE_BUSY_MS });
  try {
    // Only the first holder writes (creates the table); two creating it at once wait briefly.
    const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'holder'`).get();
    if (!exists) db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM holder').get();
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) return null;
    throw error;
  }
}
