import type { Filter } from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store';
import * as compiler from './filter-to-sql';
import { filterToSql, type FilterContext } from './filter-to-sql';
import { GuardedFilters } from './guarded-filter';
import { DOC_TEXT } from './sql-names';

const guard = (id: string, below: number): Filter => ({
  _id: id,
  source_position: { $lt: below },
});

describe('GuardedFilters', () => {
  afterEach(() => jest.restoreAllMocks());

  it('gives what filterToSql gives for a guarded write, compiling its SQL once', () => {
    const filters = new GuardedFilters();
    const context: FilterContext = {};
    const compiles = jest.spyOn(compiler, 'filterToSql');
    const first = filters.where('users', guard('user:1', 10), context);
    // The filter, and one of other values to check that they land in the same places.
    expect(compiles).toHaveBeenCalledTimes(2);
    for (const [id, below] of [
      ['user:2', 11],
      ['', 0],
      ['日本', -3.5],
      ['user:1', 1e15],
    ] as const) {
      compiles.mockClear();
      const kept = filters.where('users', guard(id, below), context);
      expect(compiles).not.toHaveBeenCalled();
      expect(kept).toEqual(filterToSql(guard(id, below), context));
      expect(kept.sql).toBe(first.sql);
      expect(kept.params).toContain(id);
      expect(kept.params).toContain(below);
    }
  });

  it('compiles again when the collection gets key columns, and per collection', () => {
    const filters = new GuardedFilters();
    const bare = filters.where('users', guard('a', 1), {});
    const keys = new Map([['source_position', '"key:source_position"']]);
    const keyed = filters.where('users', guard('b', 2), { keys });
    expect(keyed).toEqual(filterToSql(guard('b', 2), { keys }));
    expect(keyed.sql).not.toBe(bare.sql);
    expect(keyed.sql).toContain('"key:source_position" < ?');
    // Another collection keeps its own; the first one's form stays for its next write.
    expect(filters.where('tokens', guard('c', 3), {})).toEqual(filterToSql(guard('c', 3), {}));
    expect(filters.where('users', guard('d', 4), { keys }).sql).toBe(keyed.sql);
  });

  it('compiles any other filter each time, as filterToSql does', () => {
    const filters = new GuardedFilters();
    const others: Filter[] = [
      { _id: 'a', source_position: { $lte: 3 } },
      { _id: 'a', source_position: { $lt: '3' } },
      { _id: 'a', source_position: { $lt: 3, $gt: 1 } },
      { _id: 7, source_position: { $lt: 3 } },
      { source_position: { $lt: 3 }, _id: 'a' },
      { _id: 'a', source_position: 3 },
      { _id: 'a', $or: [{ x: 1 }, { y: 2 }] },
      { _id: 'a', source_position: { $lt: 3 }, x: 1 },
      { _id: 'a' },
    ];
    for (const filter of others)
      expect(filters.where('users', filter, {})).toEqual(filterToSql(filter, {}));
    // Refused alike: a position that is not finite is no guard.
    const infinite = { _id: 'a', source_position: { $lt: Number.POSITIVE_INFINITY } };
    expect(() => filterToSql(infinite, {})).toThrow();
    expect(() => filters.where('users', infinite, {})).toThrow();
  });

  it('keeps the SELECT built over a guarded filter, and builds any other each time', () => {
    const filters = new GuardedFilters();
    const a = filters.selectDocuments('users', 't', filters.where('users', guard('a', 1), {}));
    const b = filters.selectDocuments('users', 't', filters.where('users', guard('b', 2), {}));
    expect(a).toBe(`SELECT id, ${DOC_TEXT} AS doc FROM t WHERE ${filterToSql(guard('a', 1)).sql}`);
    expect(b).toBe(a);
    const other = filters.where('users', { _id: 'a', n: { $gt: 1 } }, {});
    expect(filters.selectDocuments('users', 't', other)).toBe(
      `SELECT id, ${DOC_TEXT} AS doc FROM t WHERE ${other.sql}`,
    );
  });
});

describe('guarded writes through the SQLite read store', () => {
  it('apply while the recorded position is below, alternating documents and positions', async () => {
    const store = new SqliteReadStore(':memory:');
    await store.declare([{ name: 'users' }]);
    const users = store.collection<{ _id: string; n: number; source_position?: number }>('users');
    await users.put({ _id: 'u1', n: 0, source_position: 5 });
    await users.put({ _id: 'u2', n: 0, source_position: 1 });
    await users.put({ _id: 'u3', n: 0 });
    const write = (id: string, below: number) =>
      store.transaction((session) =>
        session
          .collection('users')
          .updateMany(guard(id, below), { $inc: { n: 1 }, $set: { source_position: below } }),
      );
    expect(await write('u1', 5)).toBe(0); // not below: already applied
    expect(await write('u2', 5)).toBe(1);
    expect(await write('u1', 6)).toBe(1);
    expect(await write('u2', 5)).toBe(0);
    expect(await write('u3', 9)).toBe(0); // no position recorded: $lt matches no missing field
    expect(await write('missing', 9)).toBe(0);
    expect(await write('u2', 7)).toBe(1);
    expect(
      (await users.find({}, { sort: { _id: 1 } })).map((u) => [u.n, u.source_position]),
    ).toEqual([
      [1, 6],
      [2, 7],
      [0, undefined],
    ]);
    await store.close();
  });
});
