import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CollectionSpec } from '../read-store.port';
import { wantsIndexes } from './deferred-indexes';
import { SqliteReadStore } from './sqlite-read-store';

const PEOPLE: CollectionSpec = {
  name: 'people',
  indexes: [{ fields: { email: 1 }, unique: true }, { fields: { team: 1, age: -1 } }],
  search: ['name'],
};
const UNIQUE = 'ix_people__email_a__u';
const TEAM = 'ix_people__team_a__age_d';
const FTS = '$fts_people';

/** The names a query lists, read by another connection (the committed schema). */
function names(path: string, sql: string, ...params: string[]): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(sql).all(...params) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  } finally {
    db.close();
  }
}

/** Indexes and tables of the file as another connection sees them. */
const schema = (path: string): string[] =>
  names(
    path,
    `SELECT name FROM sqlite_master WHERE name IN (?, ?, ?) ORDER BY name`,
    FTS,
    TEAM,
    UNIQUE,
  );

describe('SqliteReadStore deferred indexes (offline rebuild)', () => {
  let dir: string;
  let path: string;
  const stores: SqliteReadStore[] = [];
  const open = async () => {
    const store = new SqliteReadStore(path, { readers: 1 });
    stores.push(store);
    await store.declare([PEOPLE]);
    return store;
  };
  const fill = async (store: SqliteReadStore) => {
    for (let i = 0; i < 30; i++)
      await store.collection('people').put({
        _id: `p${i}`,
        name: `person ${i}`,
        email: `p${i}@example.com`,
        team: `t${i % 3}`,
        age: 20 + i,
      });
  };
  const answers = async (store: SqliteReadStore) => {
    const people = store.collection('people');
    return {
      team: await people.find({ team: 't1' }, { sort: { age: -1 } }),
      search: await people.find({ name: { $regex: 'son 2', $options: 'i' } }),
      count: await people.count({ team: 't2' }),
    };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-deferred-'));
    path = join(dir, 'read.sqlite');
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops the non-unique and search indexes until buildIndexes, with the same answers', async () => {
    const reference = await open();
    await fill(reference);
    const expected = await answers(reference);
    expect(schema(path)).toEqual([FTS, UNIQUE, TEAM]);

    await reference.drop(['people']);
    await reference.deferIndexes(['people']);
    expect(schema(path)).toEqual([UNIQUE]); // the unique one is a constraint: it stays
    await fill(reference);
    await expect(
      reference.collection('people').put({ _id: 'dup', email: 'p1@example.com' }),
    ).rejects.toThrow('Duplicate key');
    expect(await answers(reference)).toEqual(expected); // outside a transaction: scans

    await reference.buildIndexes();
    expect(schema(path)).toEqual([FTS, UNIQUE, TEAM]);
    expect(await answers(reference)).toEqual(expected);
    expect(expected.search.map((p) => p._id).sort()).toEqual(
      ['p2', ...Array.from({ length: 10 }, (_, i) => `p2${i}`)].sort(),
    );
    expect(expected.team.map((p) => p['age'])).toEqual([48, 45, 42, 39, 36, 33, 30, 27, 24, 21]);
  });

  it('an interrupted rebuild (indexes dropped, process gone) gets them back at the next declare', async () => {
    const first = await open();
    await first.deferIndexes(['people']);
    await fill(first);
    await first.close(); // dies before buildIndexes
    expect(schema(path)).toEqual([UNIQUE]);

    const next = await open();
    expect(schema(path)).toEqual([FTS, UNIQUE, TEAM]);
    expect(await next.collection('people').count()).toBe(30); // the counter recounted
    const found = await next.collection('people').find({ name: { $regex: 'person 1\\d' } });
    expect(found.map((p) => p._id)).toEqual([
      'p10',
      'p11',
      'p12',
      'p13',
      'p14',
      'p15',
      'p16',
      'p17',
      'p18',
      'p19',
    ]);
    await next.declare([PEOPLE]); // idempotent: nothing to add, nothing lost
    expect(schema(path)).toEqual([FTS, UNIQUE, TEAM]);
    expect(await next.collection('people').count({ team: 't0' })).toBe(10);
  });

  it('a filtered query inside a transaction builds the collection first; a rollback drops them again', async () => {
    const store = await open();
    await fill(store);
    await store.deferIndexes(['people']);
    await expect(
      store.transaction(async (session) => {
        expect(await session.collection('people').count({ team: 't0' })).toBe(10);
        throw new Error('page failed');
      }),
    ).rejects.toThrow('page failed');
    expect(schema(path)).toEqual([UNIQUE]);
    // Still answered (the search no longer names the dropped trigram table).
    expect(await store.collection('people').count({ name: { $regex: 'person 7' } })).toBe(1);

    await store.transaction(async (session) => {
      await session.collection('people').get('p1'); // by id: the primary key, nothing built
      await session.collection('people').put({ _id: 'p99', name: 'x', email: 'x@y', team: 't9' });
    });
    expect(schema(path)).toEqual([UNIQUE]);
    await store.transaction(async (session) => {
      expect(await session.collection('people').find({ team: 't9' })).toHaveLength(1);
    });
    expect(schema(path)).toEqual([FTS, UNIQUE, TEAM]);
    expect(await store.collection('people').count({ name: { $regex: 'person 7' } })).toBe(1);
  });

  it("drops a write-once collection's computed key columns and its counter until built; answers stay right", async () => {
    const EVENTS: CollectionSpec = {
      name: 'events',
      writeOnce: true,
      indexes: [{ fields: { code: 1 }, unique: true }, { fields: { user: 1, at: -1 } }],
    };
    const store = new SqliteReadStore(path, { readers: 1 });
    stores.push(store);
    await store.declare([EVENTS]);
    const columns = () => ({
      columns: names(path, `SELECT name FROM pragma_table_xinfo('events') ORDER BY name`),
      triggers: names(
        path,
        `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events' ORDER BY name`,
      ),
    });
    const built = {
      columns: ['doc', 'id', 'key:at', 'key:code', 'key:user'],
      triggers: ['$count_del_events', '$count_ins_events'],
    };
    expect(columns()).toEqual(built);

    await store.deferIndexes(['events']);
    // The unique index's column stays: it is a constraint.
    expect(columns()).toEqual({ columns: ['doc', 'id', 'key:code'], triggers: [] });
    const events = store.collection('events');
    for (let i = 0; i < 12; i++)
      await events.put({ _id: `e${i}`, code: `c${i}`, user: i % 3, at: 100 + i });
    await expect(events.put({ _id: 'dup', code: 'c1', user: 0, at: 0 })).rejects.toThrow(
      'Duplicate key',
    );
    expect(await events.count()).toBe(12); // counted from the rows, not from a stale counter
    await events.delete('e11');
    expect(await events.count()).toBe(11);
    const ofUser1 = async () =>
      (await events.find({ user: 1 }, { sort: { at: -1 } })).map((e) => e._id);
    // Outside a transaction: the key computed from the document.
    expect(await ofUser1()).toEqual(['e10', 'e7', 'e4', 'e1']);
    expect(await events.count({ _id: 'e4', user: 1 })).toBe(1);
    await store.transaction(async (session) => {
      expect(await session.collection('events').count()).toBe(11);
      expect(await session.collection('events').count({ _id: 'e4', user: 1 })).toBe(1);
    });
    expect(columns().triggers).toEqual([]); // neither query wanted an index

    await store.buildIndexes();
    expect(columns()).toEqual(built);
    expect(await events.count()).toBe(11); // recounted when the counter came back
    await events.put({ _id: 'e20', code: 'c20', user: 1, at: 1 });
    expect(await events.count()).toBe(12);
    expect(await ofUser1()).toEqual(['e10', 'e7', 'e4', 'e1', 'e20']);
  });

  it('refuses an undeclared collection', async () => {
    const store = await open();
    await expect(store.deferIndexes(['nobody'])).rejects.toThrow('not declared');
  });
});

describe('wantsIndexes', () => {
  it('is false for lookups by _id and whole-collection reads, true for other filters and sorts', () => {
    expect(wantsIndexes(undefined)).toBe(false);
    expect(wantsIndexes({})).toBe(false);
    expect(wantsIndexes({ team: undefined })).toBe(false);
    expect(wantsIndexes({ _id: 'a', source_position: { $lt: 3 } })).toBe(false);
    expect(wantsIndexes({ _id: { $in: ['a'] } })).toBe(true);
    expect(wantsIndexes({ team: 't1' })).toBe(true);
    expect(wantsIndexes({}, { sort: { _id: -1 } })).toBe(false);
    expect(wantsIndexes({}, { sort: { age: 1 } })).toBe(true);
  });
});
