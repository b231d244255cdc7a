import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_CACHE_KIB, prepareDatabase } from './sqlite-schema';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prepareDatabase', () => {
  it('bounds the connection’s page cache below SQLite’s default, beside WAL and the fsync mode', () => {
    const file = join(dir, 'events.sqlite');
    const db = new Database(file);
    try {
      const defaultKiB = -(db.pragma('cache_size', { simple: true }) as number);
      prepareDatabase(db, 'full');
      expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
      expect(PAGE_CACHE_KIB).toBeLessThan(defaultKiB);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    } finally {
      db.close();
    }
  });
});
