import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { AnyDoc, CollectionSpec } from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store';

/** Values whose JSON text has escapes, non-ASCII, exponents and nesting: what a round trip could bend. */
const odd = (id: string, group: unknown): AnyDoc => ({
  _id: id,
  group,
  n: 1e21,
  f: -0.5,
  s: 'é "quoted" \\ \u2028 \u0000 \ud800 😀',
  o: { x: [1, 'two', { y: null }], e: '' },
  note: `note of ${id}`,
});

describe("SqliteReadStore: a write-once collection's documents as binary JSON", () => {
  let dir: string;
  let store: SqliteReadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'binary-docs-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const spec = (writeOnce: boolean): CollectionSpec => ({
    name: 'rows',
    indexes: [{ fields: { group: 1, n: -1 } }],
    search: ['note'],
    writeOnce,
  });
  const writer = () => (store as unknown as { writer: Database.Database }).writer;
  const forms = () =>
    writer().prepare(`SELECT id, typeof(doc) AS form FROM rows ORDER BY id`).all();
  /** What every kind of read answers, for rows of either form. */
  const answers = async () => {
    const rows = store.collection('rows');
    return {
      all: await rows.find({}, { sort: { _id: 1 } }),
      one: await rows.get('b'),
      byObject: (await rows.find({ o: odd('', 0)['o'] })).map((d) => d._id).sort(),
      byKey: (await rows.find({ group: 'vip' }, { sort: { _id: 1 } })).map((d) => d._id),
      searched: (await rows.find({ note: { $regex: 'of b' } })).map((d) => d._id),
      sums: await rows.sum({}, 'group', ['n', 'f']),
      count: await rows.count({ group: { $in: ['vip', 'std'] } }),
    };
  };

  it('writes JSONB, reads back the same values, and reads text rows written before alike', async () => {
    await store.declare([spec(true)]);
    // A row of the text form, as a version that stored text wrote it.
    const old = odd('a', 'std');
    const { _id, ...body } = old;
    writer().prepare(`INSERT INTO rows (id, doc) VALUES (?, ?)`).run(_id, JSON.stringify(body));
    const rows = store.collection('rows');
    await rows.put(odd('b', 'vip'));
    await rows.put(odd('c', 'vip'));
    await rows.put({ _id: 'd', group: 3, note: 'plain' });
    expect(forms()).toEqual([
      { id: 'a', form: 'text' },
      { id: 'b', form: 'blob' },
      { id: 'c', form: 'blob' },
      { id: 'd', form: 'blob' },
    ]);
    // The blob is SQLite's binary JSON: json() turns it into the text JSON.stringify wrote.
    const { text } = writer()
      .prepare(`SELECT json(doc) AS text FROM rows WHERE id = 'b'`)
      .get() as {
      text: string;
    };
    const { _id: _b, ...bodyB } = odd('b', 'vip');
    expect(text).toBe(JSON.stringify(bodyB));

    const expected = {
      all: [old, odd('b', 'vip'), odd('c', 'vip'), { _id: 'd', group: 3, note: 'plain' }],
      one: odd('b', 'vip'),
      byObject: ['a', 'b', 'c'],
      byKey: ['b', 'c'],
      searched: ['b'],
      sums: [
        { _id: 3, count: 1, sums: { n: 0, f: 0 } },
        { _id: 'std', count: 1, sums: { n: 1e21, f: -0.5 } },
        { _id: 'vip', count: 2, sums: { n: 2e21, f: -1 } },
      ],
      count: 3,
    };
    expect(await answers()).toEqual(expected);

    // An update of either form writes binary JSON; the answers follow the change.
    await rows.update('a', { $set: { group: 'vip' } });
    await rows.update('b', { $set: { group: 'std' } });
    expect(forms()[0]).toEqual({ id: 'a', form: 'blob' });
    expect((await answers()).byKey).toEqual(['a', 'c']);
    await rows.update('a', { $set: { group: 'std' } });
    await rows.update('b', { $set: { group: 'vip' } });
    expect(await answers()).toEqual(expected);

    // Declared as an ordinary collection again: the binary rows still read as before, new writes
    // are text.
    await store.declare([spec(false)]);
    expect(await answers()).toEqual(expected);
    await rows.update('c', { $set: { f: 2 } });
    expect(forms()[2]).toEqual({ id: 'c', form: 'text' });
    expect(await rows.get('c')).toEqual({ ...odd('c', 'vip'), f: 2 });
  });
});
