import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CollectionSpec } from '../read-store.port';
import { readStoreContract } from '../testing/read-store.contract';
import { filterToSql } from './filter-to-sql';
import type { SearchIndex } from './search-narrowing';
import { keyColumn, keyExpr } from './sql-names';
import type { StatementCache } from './statement-cache';
import { registerRegexp } from './regexp-function';
import { SqliteReadStore } from './sqlite-read-store';

/** The trigram index declareSearch makes for a `people` collection searching these fields. */
const peopleIndex = (...fields: string[]): SearchIndex => ({
  table: '"$fts_people"',
  contentTable: '"$fts_people_content"',
  rows: '"people"',
  columns: new Map(fields.map((field, i) => [field, `c${i}`])),
});

describe('SqliteReadStore', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-store-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('contract, in memory', () => {
    readStoreContract(async () => new SqliteReadStore(':memory:'));
  });

  describe('contract, on a file', () => {
    readStoreContract(async () => new SqliteReadStore(join(dir, 'contract.sqlite')));
  });

  describe('contract, on a scratch file', () => {
    readStoreContract(
      async () => new SqliteReadStore(join(dir, 'contract-scratch.sqlite'), { scratch: true }),
    );
  });

  it('keeps a scratch file without a WAL, rolls back, and reads on its write connection', async () => {
    const file = join(dir, 'scratch.sqlite');
    const store = new SqliteReadStore(file, { scratch: true });
    try {
      await store.declare([{ name: 'users', indexes: [{ fields: { group: 1 } }] }]);
      await store.collection('users').put({ _id: 'u1', group: 'vip' });
      // A rolled-back transaction leaves nothing behind: the journal in memory still undoes it.
      await expect(
        store.transaction(async (session) => {
          await session.collection('users').put({ _id: 'u2', group: 'vip' });
          throw new Error('undone');
        }),
      ).rejects.toThrow('undone');
      expect(await store.collection('users').find({ group: 'vip' })).toEqual([
        { _id: 'u1', group: 'vip' },
      ]);
      expect(existsSync(`${file}-wal`)).toBe(false);
      // Its online copy needs WAL, to read beside the writer.
      await expect(store.backup(join(dir, 'scratch-copy.sqlite'))).rejects.toThrow(/scratch/);
    } finally {
      await store.close();
    }
    const db = new Database(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete'); // MEMORY is per connection
      expect(db.prepare('SELECT id FROM users').pluck().all()).toEqual(['u1']);
    } finally {
      db.close();
    }
  });

  it('refuses a page cache that is not a positive number of KiB, opening nothing', () => {
    for (const pageCacheKiB of [0, -5, 1.5, Number.NaN]) {
      const file = join(dir, `cache-${Math.random().toString(36).slice(2)}.sqlite`);
      expect(() => new SqliteReadStore(file, { pageCacheKiB })).toThrow(/pageCacheKiB/);
      expect(existsSync(file)).toBe(false);
    }
  });

  describe('specifics', () => {
    let store: SqliteReadStore;
    let file: string;
    beforeEach(async () => {
      file = join(dir, `specific-${Math.random().toString(36).slice(2)}.sqlite`);
      store = new SqliteReadStore(file);
      await store.declare([
        { name: 'users', indexes: [{ fields: { group: 1 } }] },
        { name: 'accounts', indexes: [{ fields: { email: 1 }, unique: true }] },
      ]);
    });
    afterEach(async () => {
      await store.close();
    });

    it('makes writes outside a transaction wait until it ends, and keeps them after a rollback', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const events: string[] = [];
      const tx = store.transaction(async (session) => {
        await session.collection('users').put({ _id: 'in-tx', n: 1 });
        await gate;
        events.push('tx body done');
        throw new Error('roll back');
      });
      const outside = store
        .collection('users')
        .put({ _id: 'outside', n: 2 })
        .then(() => events.push('outside write done'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(events).toEqual([]);
      release();
      await expect(tx).rejects.toThrow('roll back');
      await outside;
      expect(events).toEqual(['tx body done', 'outside write done']);
      expect(await store.collection('users').get('in-tx')).toBeNull();
      expect(await store.collection('users').get('outside')).toEqual({ _id: 'outside', n: 2 });
    });

    it('runs transactions one at a time', async () => {
      const order: string[] = [];
      const run = (label: string) =>
        store.transaction(async (session) => {
          order.push(`${label} start`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          await session.collection('users').update('counter', { $inc: { n: 1 } }, { upsert: true });
          order.push(`${label} end`);
        });
      await Promise.all([run('a'), run('b')]);
      expect(order).toEqual(['a start', 'a end', 'b start', 'b end']);
      expect(await store.collection('users').get('counter')).toEqual({ _id: 'counter', n: 2 });
    });

    it('lets reads through the store see only committed data', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const tx = store.transaction(async (session) => {
        await session.collection('users').put({ _id: 'pending' });
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await store.collection('users').get('pending')).toBeNull(); // does not wait, sees the last commit
      release();
      await tx;
      expect(await store.collection('users').get('pending')).toEqual({ _id: 'pending' });
    });

    it('refuses store writes and nested transactions inside a transaction body (they would deadlock)', async () => {
      await expect(
        store.transaction(async () => {
          await store.collection('users').put({ _id: 'x' });
        }),
      ).rejects.toThrow(/through the session/);
      await expect(store.transaction(async () => store.transaction(async () => 1))).rejects.toThrow(
        /through the session/,
      );
    });

    it('refuses a session used after its transaction', async () => {
      let leaked: import('../read-store.port').ReadStoreSession | undefined;
      await store.transaction(async (session) => {
        leaked = session;
      });
      await expect(leaked!.collection('users').put({ _id: 'late' })).rejects.toThrow(
        /after its transaction/,
      );
    });

    it('keeps a failed write inside a transaction from leaving partial effects', async () => {
      await store.collection('accounts').put({ _id: 'taken', email: 'x' });
      await store.transaction(async (session) => {
        await session.collection('accounts').put({ _id: 'ok', email: 'y' });
        await expect(
          session
            .collection('accounts')
            .update('taken2', { $set: { email: 'x' } }, { upsert: true }),
        ).rejects.toThrow();
      });
      expect(await store.collection('accounts').count()).toBe(2);
    });

    describe('key columns', () => {
      const keysOf = (db: Database.Database, table: string) =>
        db.prepare(`SELECT id, "key:group" AS g FROM ${table} ORDER BY id`).all();
      /** The SQL the write connection runs (its statement cache hands each one out). */
      const preparedBy = async (fn: () => Promise<unknown>): Promise<string[]> => {
        const writes = (store as unknown as { writes: StatementCache }).writes;
        const spy = jest.spyOn(writes, 'get');
        try {
          await fn();
          return spy.mock.calls.map(([sql]) => sql);
        } finally {
          spy.mockRestore();
        }
      };

      it('hold each indexed value as the document changes, and index only those', async () => {
        const users = store.collection('users');
        await users.put({ _id: 'a', group: 'vip', n: 1 });
        await users.put({ _id: 'b', group: ['x', 1], n: 1 });
        await users.put({ _id: 'c', n: 1 });
        await users.update('a', { $inc: { n: 1 } });
        await users.update('c', { $set: { group: true } });
        await users.updateMany({ _id: 'b' }, { $set: { group: 'std' } });
        await store.close();
        const db = new Database(file);
        try {
          // keyExpr's values: text as is, a missing field as the null key, true as x'04'.
          expect(keysOf(db, 'users')).toEqual([
            { id: 'a', g: 'vip' },
            { id: 'b', g: 'std' },
            { id: 'c', g: Buffer.from([4]) },
          ]);
          expect(
            db
              .prepare(
                `SELECT count(*) AS n FROM users WHERE "key:group" IS NOT (${keyExpr('group')})`,
              )
              .get(),
          ).toEqual({ n: 0 });
        } finally {
          db.close();
        }
        store = new SqliteReadStore(file);
        await store.declare([{ name: 'users', indexes: [{ fields: { group: 1 } }] }]);
        expect(await store.collection('users').find({ group: 'std' })).toEqual([
          { _id: 'b', group: 'std', n: 1 },
        ]);
      });

      it('let an update that changes no indexed value write the document alone', async () => {
        const users = store.collection('users');
        await users.put({ _id: 'a', group: 'vip', n: 1 });
        const counters = await preparedBy(() => users.update('a', { $inc: { n: 1 } }));
        const regroup = await preparedBy(() => users.update('a', { $set: { group: 'std' } }));
        expect(counters.filter((sql) => sql.startsWith('UPDATE'))).toEqual([
          'UPDATE "users" SET doc = ? WHERE id = ?',
        ]);
        expect(regroup.some((sql) => sql.includes('"key:group" = excluded."key:group"'))).toBe(
          true,
        );
        expect(await users.find({ group: 'std' })).toEqual([{ _id: 'a', group: 'std', n: 2 }]);
        expect(await users.find({ group: 'vip' })).toEqual([]);
      });

      it('are added and filled for a table of the earlier layout, and dropped with their index', async () => {
        await store.close();
        const old = join(dir, `old-${Math.random().toString(36).slice(2)}.sqlite`);
        const db = new Database(old);
        db.exec(`CREATE TABLE users (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
        db.exec(`CREATE INDEX "ix_users__group_a" ON users (${keyExpr('group')} ASC, id ASC)`);
        db.prepare(`INSERT INTO users VALUES (?, ?)`).run('u1', '{"group":"vip","n":1}');
        db.prepare(`INSERT INTO users VALUES (?, ?)`).run('u2', '{"group":3}');
        db.close();
        store = new SqliteReadStore(old);
        await store.declare([{ name: 'users', indexes: [{ fields: { group: 1 } }] }]);
        expect(await store.collection('users').find({ group: 'vip' })).toEqual([
          { _id: 'u1', group: 'vip', n: 1 },
        ]);
        expect(await store.collection('users').find({ group: { $gt: 2 } })).toEqual([
          { _id: 'u2', group: 3 },
        ]);
        // The index no longer listed: its column goes too, so a column never outlives its upkeep.
        await store.declare([{ name: 'users' }]);
        await store.close();
        const after = new Database(old);
        try {
          const columns = after.prepare(`SELECT name FROM pragma_table_info('users')`).all();
          expect(columns).toEqual([{ name: 'id' }, { name: 'doc' }]);
          expect(
            after
              .prepare(
                `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users' AND sql IS NOT NULL`,
              )
              .all(),
          ).toEqual([]);
        } finally {
          after.close();
        }
        store = new SqliteReadStore(file);
      });

      it('are computed for a write-once collection, with the same answers either way', async () => {
        const spec = (writeOnce: boolean): CollectionSpec => ({
          name: 'users',
          indexes: [{ fields: { group: 1, n: -1 } }],
          writeOnce,
        });
        const answers = async () => {
          const users = store.collection('users');
          return [
            await users.find({ group: 'vip' }, { sort: { n: -1 } }),
            await users.find({ group: { $gt: 2 } }),
            await users.sum({ group: 'vip' }, null, ['n']),
            await users.count({ group: 'std' }),
          ];
        };
        const kinds = () =>
          (store as unknown as { writer: Database.Database }).writer
            .prepare(`SELECT name, hidden FROM pragma_table_xinfo('users') WHERE name LIKE 'key:%'`)
            .all();
        await store.declare([spec(true)]);
        const users = store.collection('users');
        await users.put({ _id: 'a', group: 'vip', n: 1 });
        await users.put({ _id: 'b', group: 'vip', n: 5 });
        await users.put({ _id: 'c', group: 3 });
        await users.put({ _id: 'd', group: 'std', n: 2 });
        await users.update('d', { $set: { group: 'vip' } });
        const computed = await answers();
        expect(computed[0]).toEqual([
          { _id: 'b', group: 'vip', n: 5 },
          { _id: 'd', group: 'vip', n: 2 },
          { _id: 'a', group: 'vip', n: 1 },
        ]);
        expect(kinds()).toEqual([
          { name: 'key:group', hidden: 2 },
          { name: 'key:n', hidden: 2 },
        ]);
        // Stored again, then computed again: the columns follow the declaration, the answers stay.
        await store.declare([spec(false)]);
        expect(kinds()).toEqual([
          { name: 'key:group', hidden: 0 },
          { name: 'key:n', hidden: 0 },
        ]);
        expect(await answers()).toEqual(computed);
        await store.declare([spec(true)]);
        expect(await answers()).toEqual(computed);
      });
    });

    it('persists across reopening the file', async () => {
      await store.collection('users').put({ _id: 'u1', email: 'a@example.com', group: 'vip' });
      await store.close();
      store = new SqliteReadStore(file);
      await store.declare([{ name: 'users', indexes: [{ fields: { email: 1 } }] }]);
      expect(await store.collection('users').find({ group: 'vip' })).toEqual([
        { _id: 'u1', email: 'a@example.com', group: 'vip' },
      ]);
    });

    it('uses WAL and the declared indexes on the key columns', async () => {
      await store.collection('users').put({ _id: 'u1', group: 'vip' });
      await store.close();
      const db = new Database(file);
      try {
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        const keys = new Map([['group', keyColumn('group')]]);
        const where = filterToSql({ group: 'vip' }, { keys, scalar: new Set(['group']) });
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN SELECT id FROM users WHERE ${where.sql} ORDER BY id`)
          .all(...where.params) as Array<{ detail: string }>;
        expect(plan.map((p) => p.detail).join()).toMatch(
          /USING (COVERING )?INDEX ix_users__group_a/,
        );
        // The index ends with the _id tie-breaker: equal keys come out in _id order, unsorted.
        expect(plan.map((p) => p.detail).join()).not.toMatch(/TEMP B-TREE/);
        // With the array-element branch, both halves are still index seeks.
        const full = filterToSql({ group: 'vip' }, { keys, indexed: new Set(['group']) });
        const orPlan = db
          .prepare(`EXPLAIN QUERY PLAN SELECT id FROM users WHERE ${full.sql}`)
          .all(...full.params) as Array<{ detail: string }>;
        expect(orPlan.map((p) => p.detail).join()).toMatch(/MULTI-INDEX OR/);
        expect(orPlan.map((p) => p.detail).join()).not.toMatch(/SCAN users/);
      } finally {
        db.close();
      }
      store = new SqliteReadStore(file);
    });

    it('runs reads off the event loop: timers keep firing while a slow query runs', async () => {
      // Catastrophic backtracking makes each row cost tens of milliseconds inside SQLite's regexp().
      const slow = 'a'.repeat(23) + '!';
      await store.transaction(async (session) => {
        for (let i = 0; i < 6; i++)
          await session.collection('users').put({ _id: `s${i}`, note: slow });
      });
      let ticks = 0;
      let last = performance.now();
      let worstGap = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        worstGap = Math.max(worstGap, now - last);
        last = now;
        ticks++;
      }, 5);
      const started = performance.now();
      const found = await store.collection('users').find({ note: { $regex: '^(a+)+$' } });
      const took = performance.now() - started;
      clearInterval(timer);
      expect(found).toEqual([]);
      expect(took).toBeGreaterThan(150); // the query really was slow...
      expect(ticks).toBeGreaterThan(took / 5 / 4); // ...and the loop kept turning meanwhile
      expect(worstGap).toBeLessThan(Math.max(100, took / 2));
    });

    it('serves concurrent reads from several workers and sees each commit', async () => {
      const users = store.collection('users');
      for (let i = 0; i < 20; i++) {
        await users.put({ _id: `u${i}`, group: i % 2 ? 'odd' : 'even' });
        // read-your-writes: the read after the commit, on another thread, sees it
        expect(await users.get(`u${i}`)).toEqual({ _id: `u${i}`, group: i % 2 ? 'odd' : 'even' });
      }
      const counts = await Promise.all(
        Array.from({ length: 20 }, (_, i) => users.count({ group: i % 2 ? 'odd' : 'even' })),
      );
      expect(counts).toEqual(Array.from({ length: 20 }, () => 10));
      await expect(users.find({ 'bad path"': 1 })).rejects.toThrow(/Invalid field path/);
    });

    it('answers literal searches through the trigram index and counts from the counter', async () => {
      await store.declare([
        { name: 'people', search: ['username', 'email'], indexes: [{ fields: { id: -1 } }] },
      ]);
      await store.collection('people').put({ _id: '1', id: 1, username: 'searchable' });
      await store.close();
      const db = new Database(file);
      registerRegexp(db);
      try {
        const plan = (sql: string, ...params: unknown[]) =>
          (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
            .map((p) => p.detail)
            .join(' | ');
        const where = filterToSql(
          {
            $or: [
              { username: { $regex: 'arch', $options: 'i' } },
              { email: { $regex: 'arch', $options: 'i' } },
            ],
          },
          peopleIndex('username', 'email'),
        );
        const detail = plan(`SELECT id FROM people WHERE ${where.sql}`, ...where.params);
        expect(detail).toMatch(/VIRTUAL TABLE INDEX/);
        expect(detail).not.toMatch(/^SCAN people$/m);
        expect(db.prepare(`SELECT n FROM "$counts" WHERE collection = 'people'`).get()).toEqual({
          n: 1,
        });
      } finally {
        db.close();
      }
      store = new SqliteReadStore(file);
    });

    it('narrows 1- and 2-character literals by scanning the index content, with the same answers', async () => {
      await store.declare([{ name: 'people', search: ['username', 'email', 'tags'] }]);
      const names = ['ab', 'AB', 'xAbx', 'Élan', 'élan', '张三', 'a"b', 'zz', 'q.b', ''];
      await store.transaction(async (session) => {
        for (let i = 0; i < 60; i++) {
          await session.collection('people').put({
            _id: `p${i}`,
            username: i % 7 === 6 ? i : names[i % names.length],
            email: i % 5 === 4 ? null : `${names[(i * 3) % names.length]}@x.io`,
            tags: i % 3 === 0 ? [names[(i + 1) % names.length], 7] : names[(i + 2) % names.length],
          });
        }
      });
      await store.close();
      const db = new Database(file);
      registerRegexp(db);
      const search = peopleIndex('username', 'email', 'tags');
      const content = /"\$fts_people_content"/g;
      try {
        const or = filterToSql(
          {
            $or: [
              { username: { $regex: 'Ab', $options: 'i' } },
              { email: /Ab/i },
              { tags: { $regex: 'Ab' } },
              { _id: 'p1' },
            ],
          },
          search,
        );
        // One subquery for the three branches, each with its own case rule.
        expect(or.sql.match(content)).toHaveLength(1);
        expect(or.sql).toContain(
          'EXISTS (SELECT 1 FROM "$fts_people_content" AS s WHERE s.id = "people".rowid AND (instr(lower(s.c0), ?) > 0 OR instr(lower(s.c1), ?) > 0 OR instr(s.c2, ?) > 0))',
        );
        expect(or.params.slice(0, 3)).toEqual(['ab', 'ab', 'Ab']);
        const detail = (
          db
            .prepare(`EXPLAIN QUERY PLAN SELECT id FROM people WHERE ${or.sql}`)
            .all(...or.params) as Array<{
            detail: string;
          }>
        )
          .map((p) => p.detail)
          .join(' | ');
        // Each row's texts are looked up by rowid; the FTS table itself is not read.
        expect(detail).toMatch(/SEARCH s USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(detail).not.toMatch(/\$fts_people VIRTUAL TABLE/);

        const single = filterToSql({ username: /é/ }, search);
        expect(single.sql).toContain(
          'EXISTS (SELECT 1 FROM "$fts_people_content" AS s WHERE s.id = "people".rowid AND (instr(s.c0, ?) > 0))',
        );
        expect(single.params[0]).toBe('é');
        // Not searched, SQLite's lower() would not fold it, empty, or not a literal: no prefilter.
        for (const filter of [
          { nickname: /ab/i },
          { username: /é/i },
          { username: { $regex: '' } },
          { username: /^a/ },
        ]) {
          expect(filterToSql(filter, search).sql).not.toMatch(content);
        }

        const patterns = ['a', 'A', 'ab', 'Ab', 'é', 'É', '张', '"', 'q\\.', '@', 'zz', 'l'];
        const filters = patterns.flatMap((p) => [
          { username: { $regex: p, $options: 'i' } },
          { email: { $regex: p } },
          { tags: { $regex: p, $options: 'i' } },
          { $or: [{ username: { $regex: p, $options: 'i' } }, { tags: { $regex: p } }] },
          {
            $or: [
              { username: { $regex: p } },
              { email: { $regex: p, $options: 'i' } },
              { _id: 'p0' },
            ],
          },
        ]);
        const ids = (where: { sql: string; params: unknown[] }) =>
          (
            db
              .prepare(`SELECT id FROM people WHERE ${where.sql} ORDER BY id`)
              .all(...where.params) as Array<{
              id: string;
            }>
          ).map((r) => r.id);
        let narrowed = 0;
        for (const filter of filters) {
          const withIndex = filterToSql(filter, search);
          if (content.test(withIndex.sql)) narrowed++;
          content.lastIndex = 0;
          expect({ filter, ids: ids(withIndex) }).toEqual({
            filter,
            ids: ids(filterToSql(filter)),
          });
        }
        expect(narrowed).toBeGreaterThan(40);
      } finally {
        db.close();
      }
      store = new SqliteReadStore(file);
    });

    it('rebuilds an index whose definition changed (an older adapter version built it)', async () => {
      await store.collection('users').put({ _id: 'u1', group: 'vip' });
      await store.close();
      const db = new Database(file);
      const sqlOf = () =>
        (
          db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'ix_users__group_a'`).get() as {
            sql: string;
          }
        ).sql;
      const current = sqlOf();
      db.exec(`DROP INDEX ix_users__group_a`);
      db.exec(`CREATE INDEX "ix_users__group_a" ON "users" (json_extract(doc, '$.group') ASC)`);
      db.exec(`CREATE INDEX "ix_users__stale_a" ON "users" (json_extract(doc, '$.stale') ASC)`);
      db.close();
      store = new SqliteReadStore(file);
      await store.declare([{ name: 'users', indexes: [{ fields: { group: 1 } }] }]);
      const reopened = new Database(file);
      try {
        const names = reopened
          .prepare(
            `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users' AND sql IS NOT NULL`,
          )
          .all() as Array<{ name: string; sql: string }>;
        expect(names).toEqual([{ name: 'ix_users__group_a', sql: current }]);
      } finally {
        reopened.close();
      }
      expect(await store.collection('users').find({ group: 'vip' })).toEqual([
        { _id: 'u1', group: 'vip' },
      ]);
    });

    it('rejects identifiers that could escape their quoting', async () => {
      await expect(store.declare([{ name: 'users"; DROP TABLE users; --' }])).rejects.toThrow(
        /Invalid collection name/,
      );
      await expect(store.collection('users').find({ "a'b": 1 })).rejects.toThrow(
        /Invalid field path/,
      );
      await expect(store.collection('users').find({}, { sort: { 'a"b': 1 } })).rejects.toThrow(
        /Invalid field path/,
      );
    });
  });
});
