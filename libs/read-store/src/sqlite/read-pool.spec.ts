import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ReadPool } from './read-pool';

type Slots = { slots: Array<{ worker: Worker } | undefined> };
const running = (pool: ReadPool) => (pool as unknown as Slots).slots.filter(Boolean).length;

describe('ReadPool', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-pool-'));
    path = join(dir, 'read.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec(
      `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')`,
    );
    db.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops a worker idle for idleMs and starts one again for the next read', async () => {
    const pool = new ReadPool(path, 2, 100);
    try {
      expect(
        await pool.run({ sql: 'SELECT name FROM t WHERE id = ?', params: [2], mode: 'get' }),
      ).toEqual({ name: 'b' });
      expect(running(pool)).toBe(1);
      const worker = (pool as unknown as Slots).slots.find(Boolean)!.worker;
      await new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      expect(running(pool)).toBe(0);
      expect(
        await pool.run({ sql: 'SELECT COUNT(*) AS n FROM t', params: [], mode: 'get' }),
      ).toEqual({ n: 2 });
      expect(running(pool)).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('never stops a worker while a query is in flight', async () => {
    const pool = new ReadPool(path, 1, 10);
    try {
      // Long enough to outlast the idle delay many times over.
      const slow = pool.run({
        sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT COUNT(*) AS n FROM c',
        params: [],
        mode: 'get',
      });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(running(pool)).toBe(1);
      expect(await slow).toEqual({ n: 3000000 });
    } finally {
      await pool.close();
    }
  });
});
