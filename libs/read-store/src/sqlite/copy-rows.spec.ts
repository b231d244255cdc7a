import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CollectionSpec } from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store';

const PEOPLE: CollectionSpec = {
  name: 'people',
  search: ['username'],
  indexes: [{ fields: { group: 1 } }],
};
const NOTES: CollectionSpec = { name: 'notes', writeOnce: true, indexes: [{ fields: { by: 1 } }] };

describe('SqliteReadStore.copyRowsFrom: rows from another file, in SQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-copy-rows-'));
  const sourceFile = join(dir, 'source.sqlite');
  const stores: SqliteReadStore[] = [];
  const open = (file: string) => {
    const store = new SqliteReadStore(file, { readers: 1 });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    // The source as a rebuild lane leaves it: indexes deferred, closed.
    const source = new SqliteReadStore(sourceFile, { readers: 1 });
    await source.declare([PEOPLE, NOTES]);
    await source.deferIndexes(['people', 'notes']);
    for (let i = 0; i < 30; i++)
      await source.collection('people').put({
        _id: `p${i}`,
        username: `user-${i}-${i % 3 === 0 ? 'gold' : 'plain'}`,
        group: i % 2 ? 'odd' : 'even',
        nested: { n: i },
      });
    for (let i = 0; i < 5; i++)
      await source.collection('notes').put({ _id: `n${i}`, by: `p${i}`, text: 'é "quoted"' });
    await source.close();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['deferred', true],
    ['live (its triggers)', false],
  ])(
    'into a %s target: the same documents, counted, searchable and found by index',
    async (_, deferred) => {
      const target = open(join(dir, `target-${String(deferred)}.sqlite`));
      await target.declare([PEOPLE, NOTES]);
      if (deferred) await target.deferIndexes(['people', 'notes']);
      await target.copyRowsFrom(sourceFile, [{ collection: 'people' }, { collection: 'notes' }]);
      if (deferred) await target.buildIndexes();

      const people = target.collection('people');
      expect(await people.count()).toBe(30);
      expect(await people.count({ group: 'odd' })).toBe(15);
      const gold = await people.find({ username: { $regex: 'gold' } }, { sort: { _id: 1 } });
      expect(gold.map((d) => d['_id'])).toEqual([
        'p0',
        'p12',
        'p15',
        'p18',
        'p21',
        'p24',
        'p27',
        'p3',
        'p6',
        'p9',
      ]);
      expect(await people.get('p7')).toEqual({
        _id: 'p7',
        username: 'user-7-plain',
        group: 'odd',
        nested: { n: 7 },
      });
      expect(await target.collection('notes').find({ by: 'p3' })).toEqual([
        { _id: 'n3', by: 'p3', text: 'é "quoted"' },
      ]);
    },
  );

  it('copies only the ids asked for, replacing a row already there, in one transaction', async () => {
    const target = open(join(dir, 'target-ids.sqlite'));
    await target.declare([PEOPLE, NOTES]);
    await target.collection('people').put({ _id: 'p1', username: 'stale', group: 'none' });
    await target.collection('people').put({ _id: 'kept', username: 'mine', group: 'none' });
    await target.copyRowsFrom(sourceFile, [{ collection: 'people', ids: ['p1', 'p2', 'absent'] }]);
    const ids = (await target.collection('people').find({}, { sort: { _id: 1 } })).map(
      (d) => d['_id'],
    );
    expect(ids).toEqual(['kept', 'p1', 'p2']);
    expect((await target.collection('people').get('p1'))?.['username']).toBe('user-1-plain');
    expect(await target.collection('people').count()).toBe(3);
    // The replaced row left the search index and the counter with the row.
    expect(await target.collection('people').find({ username: { $regex: 'stale' } })).toEqual([]);

    // A table the source lacks fails the whole copy: nothing lands, and the store goes on.
    await target.declare([{ name: 'elsewhere' }]);
    // The driver's error class comes from outside jest's realm: its message is compared.
    const refused = await target
      .copyRowsFrom(sourceFile, [{ collection: 'notes' }, { collection: 'elsewhere' }])
      .then(
        () => 'copied',
        (error: Error) => error.message,
      );
    expect(refused).toBe('no such table: copied_from.elsewhere');
    expect(await target.collection('notes').count()).toBe(0);
    await target.copyRowsFrom(sourceFile, [{ collection: 'people' }]);
    expect(await target.collection('people').count()).toBe(31); // the source's 30, and 'kept'
  });

  it('refuses an undeclared collection', async () => {
    const target = open(join(dir, 'target-undeclared.sqlite'));
    await expect(target.copyRowsFrom(sourceFile, [{ collection: 'people' }])).rejects.toThrow(
      /not declared/,
    );
  });
});
