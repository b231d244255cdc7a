import { find as mingoFind, updateOne as mingoUpdateOne } from 'mingo';
import type {
  AnyDoc,
  Collection,
  CollectionSpec,
  Filter,
  SortSpec,
  Update,
} from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store';

/*
 * Differential tests: seeded random documents, filters, sorts and updates within the port's operator
 * set, run through the SQLite adapter and through mingo (a JavaScript implementation of MongoDB's
 * query language), and compared: same documents, same order for sorted pages, same counts, same
 * documents after updates, same refusals. Every run generates the same cases (fixed seeds).
 *
 * Kept out of the generator, on purpose (documented in docs/decisions.md, "Read-store adapter parity"):
 * - operators the port does not support ($not, $nor, $size, $elemMatch, $type, $all, $mod, $expr,
 *   $min/$mul/$push/… updates) and comparison operands other than numbers and strings;
 * - dotted paths through arrays (`o.x` where `o` is an array) and numeric path segments (`a.0`):
 *   `o` is never an array here;
 * - sorting on a field that holds arrays (MongoDB sorts by the smallest/largest element): sort
 *   fields hold null, numbers, strings, booleans and objects of one shape (`{n: digit}`) — the
 *   adapter orders objects by their JSON text, which agrees with BSON only within one shape;
 * - strings outside the Basic Multilingual Plane (JavaScript compares UTF-16 units, MongoDB and
 *   SQLite compare UTF-8 bytes).
 * Where mingo itself departs from MongoDB the generator avoids the case, and the rule is checked in
 * the contract suite instead (which also runs against a real MongoDB):
 * - a RegExp with flags together with `$options` (MongoDB refuses it; mingo accepts it);
 * - `$set` of a path inside null or a scalar (MongoDB refuses; mingo creates or ignores it): nested
 *   update paths are only generated when the parent is an object or missing;
 * - `$inc` of a non-number (MongoDB refuses; mingo ignores it): checked here against the document
 *   itself, not against mingo;
 * - `$max` involving arrays (mingo compares arrays by element, MongoDB as whole BSON values).
 */

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'a', 'A', 'ab', 'b', 'ba', 'é', 'Zed', '10', 'alpha', 'Alphabet', 'beta'];
const NUMBERS = [-2, 0, 1, 1.5, 2, 10];
const PATTERNS = ['a', '^a', 'A$', 'b.', 'é', 'lph', 'ALP', '^$', '1', 'a|Z'];
const FILTER_PATHS = ['a', 'b', 's', 't', 'o.x', 'o.y', 'n', '_id'];
const SORT_PATHS = ['s', 't', 'o.y', 'n', '_id'];

class Gen {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  scalar(): unknown {
    const r = this.int(4);
    return r === 0
      ? null
      : r === 1
        ? this.pick(NUMBERS)
        : r === 2
          ? this.pick(STRINGS)
          : this.chance(0.5);
  }
  sortable(): unknown {
    return this.chance(0.15) ? { n: this.int(10) } : this.scalar();
  }
  any(depth = 0): unknown {
    const r = this.int(10);
    if (r < 6 || depth > 1) return this.scalar();
    if (r < 8) return { x: this.any(depth + 1), y: this.sortable() };
    // Elements are scalars or objects: MongoDB does not look into arrays nested in arrays, mingo
    // sometimes does ($regex), so nested arrays stay out.
    return Array.from({ length: this.int(4) }, () =>
      this.chance(0.2) ? { x: this.scalar() } : this.scalar(),
    );
  }
  doc(id: string): AnyDoc {
    const doc: AnyDoc = { _id: id };
    if (this.chance(0.8)) doc['a'] = this.any();
    if (this.chance(0.8))
      doc['b'] = this.chance(0.3) ? [this.pick(STRINGS), this.pick(STRINGS)] : this.any();
    if (this.chance(0.8)) doc['s'] = this.sortable();
    if (this.chance(0.8)) doc['t'] = this.sortable();
    if (this.chance(0.8)) doc['n'] = this.pick(NUMBERS);
    if (this.chance(0.8)) {
      const r = this.int(5);
      doc['o'] =
        r < 3
          ? {
              ...(this.chance(0.8) ? { x: this.any() } : {}),
              ...(this.chance(0.8) ? { y: this.sortable() } : {}),
            }
          : r === 3
            ? null
            : this.scalar();
    }
    return doc;
  }
  rangeOperand(): number | string {
    return this.chance(0.5) ? this.pick(NUMBERS) : this.pick(STRINGS);
  }
  regex(): Record<string, unknown> | RegExp {
    const source = this.pick(PATTERNS);
    const r = this.int(4);
    if (r === 0) return new RegExp(source);
    if (r === 1) return new RegExp(source, 'i');
    if (r === 2) return { $regex: source };
    return { $regex: source, $options: 'i' };
  }
  condition(path: string): unknown {
    const value = () =>
      path === '_id' ? `d${this.int(45).toString().padStart(2, '0')}` : this.any();
    // mingo's $in/$nin never match a whole array against an array operand (MongoDB does): lists hold
    // scalars and objects.
    const listValue = (): unknown => {
      const v = value();
      return Array.isArray(v) ? this.scalar() : v;
    };
    switch (this.int(11)) {
      case 0:
      case 1:
        return value();
      case 2:
        return { $eq: value() };
      case 3:
        return { $ne: value() };
      case 4:
        return {
          $in: Array.from({ length: this.int(4) }, () =>
            this.chance(0.15)
              ? new RegExp(this.pick(PATTERNS), this.chance(0.5) ? 'i' : '')
              : listValue(),
          ),
        };
      case 5:
        return { $nin: Array.from({ length: this.int(4) }, listValue) };
      case 6: {
        const op = this.pick(['$gt', '$gte', '$lt', '$lte']);
        const cond: Record<string, unknown> = { [op]: this.rangeOperand() };
        if (this.chance(0.4)) cond[this.pick(['$gt', '$gte', '$lt', '$lte'])] = this.rangeOperand();
        return cond;
      }
      case 7:
        return { $exists: this.chance(0.5) };
      case 8:
      case 9:
        return this.regex();
      default:
        return { $ne: value(), $exists: true };
    }
  }
  filter(depth = 0): Filter {
    const filter: Filter = {};
    const fields = this.int(3);
    for (let i = 0; i < fields; i++) {
      const path = this.pick(FILTER_PATHS);
      filter[path] = this.condition(path);
    }
    if (depth < 2 && this.chance(0.3)) {
      const op = this.chance(0.5) ? '$or' : '$and';
      filter[op] = Array.from({ length: 1 + this.int(3) }, () => this.filter(depth + 1));
    }
    return filter;
  }
  sort(): SortSpec {
    const sort: Record<string, 1 | -1> = {};
    for (let i = 0, n = 1 + this.int(2); i < n; i++)
      sort[this.pick(SORT_PATHS)] = this.chance(0.5) ? 1 : -1;
    return sort;
  }
}

const plain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function valueAt(doc: AnyDoc, path: string): unknown {
  let current: unknown = doc;
  for (const key of path.split('.')) current = plain(current) ? current[key] : undefined;
  return current;
}

interface UpdateCase {
  readonly update: Update;
  /** The generator made this update refuse on purpose, for a reason mingo does not model ($inc of a non-number). */
  readonly incOfNonNumber: boolean;
}

/** An update for this document (see the header for the cases mingo does not model). */
function updateFor(gen: Gen, doc: AnyDoc): UpdateCase {
  const update: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  const nestedOk = doc['o'] === undefined || plain(doc['o']);
  const paths = ['a', 'b', 's', 'n', 'c', 'o', ...(nestedOk ? ['o.x', 'o.y'] : [])];
  let incOfNonNumber = false;
  const add = (op: string, path: string, value: unknown) => {
    update[op] = { ...(update[op] ?? {}), [path]: value };
    used.add(path);
  };
  for (let i = 0, n = 1 + gen.int(3); i < n; i++) {
    const path = gen.pick(paths);
    if (used.has(path)) continue;
    const current = valueAt(doc, path);
    const parentArray = path.startsWith('o.') && Array.isArray(doc['o']);
    if (parentArray) continue;
    switch (gen.int(4)) {
      case 0:
        // Sort fields keep sortable values (see the header).
        add('$set', path, ['a', 'b', 'c', 'o.x'].includes(path) ? gen.any() : gen.sortable());
        break;
      case 1:
        if (current === undefined || typeof current === 'number')
          add('$inc', path, gen.pick(NUMBERS));
        else if (gen.chance(0.3)) {
          add('$inc', path, 1);
          incOfNonNumber = true;
        }
        break;
      case 2:
        add('$unset', path, '');
        break;
      default:
        // mingo orders objects key first and arrays by element; MongoDB (and the adapter) compare
        // whole BSON values: $max stays among scalars.
        if (!Array.isArray(current) && !plain(current)) add('$max', path, gen.scalar());
    }
  }
  if (gen.chance(0.15)) {
    // A deliberate conflict: the same path under two operators, or a path and one inside it.
    const [first, second] = gen.pick([
      ['a', 'a'],
      ['o', 'o.x'],
      ['o.y', 'o'],
      ['n', 'n'],
    ] as const);
    update['$set'] = { ...(update['$set'] ?? {}), [first]: gen.scalar() };
    const op = gen.pick(['$unset', '$max', '$inc'] as const);
    update[op] = { ...(update[op] ?? {}), [second]: op === '$unset' ? '' : gen.pick(NUMBERS) };
  }
  return { update: update, incOfNonNumber };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const byId = (a: AnyDoc, b: AnyDoc) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

function reference(docs: AnyDoc[], filter: Filter, sort?: SortSpec, skip = 0, limit = 0): AnyDoc[] {
  let cursor = mingoFind(clone(docs), filter);
  if (sort) cursor = cursor.sort('_id' in sort ? sort : { ...sort, _id: 1 });
  if (skip) cursor = cursor.skip(skip);
  if (limit) cursor = cursor.limit(limit);
  return cursor.all() as AnyDoc[];
}

async function outcome<T>(run: () => Promise<T>): Promise<{ ok: T } | { error: string }> {
  try {
    return { ok: await run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('SQLite adapter vs mingo (differential)', () => {
  let store: SqliteReadStore;
  beforeAll(async () => {
    store = new SqliteReadStore(':memory:');
    const indexed: Omit<CollectionSpec, 'name'> = {
      indexes: [
        { fields: { s: 1 } },
        { fields: { a: 1 } },
        { fields: { t: -1, n: 1 } },
        { fields: { 'o.y': 1 } },
      ],
      search: ['b', 'a'],
    };
    // The write-once collection computes its keys from documents stored as binary JSON.
    await store.declare([
      { name: 'bare' },
      { name: 'indexed', ...indexed },
      { name: 'writeOnce', ...indexed, writeOnce: true },
    ]);
  });
  afterAll(async () => {
    await store.close();
  });

  const SEEDS = [11, 23, 37, 41, 59, 67, 73, 89];
  const DOCS = 45;
  const QUERIES = 70;
  const UPDATES = 40;

  it.each(SEEDS)('seed %i: finds, counts, sorted pages and updates agree', async (seed) => {
    const gen = new Gen(random(seed));
    const docs = Array.from({ length: DOCS }, (_, i) =>
      gen.doc(`d${i.toString().padStart(2, '0')}`),
    );
    const collections: Array<[string, Collection]> = [
      ['bare', store.collection('bare')],
      ['indexed', store.collection('indexed')],
      ['writeOnce', store.collection('writeOnce')],
    ];
    await store.drop(['bare', 'indexed', 'writeOnce']);
    for (const [, c] of collections) for (const doc of docs) await c.put(clone(doc));
    let compared = 0;

    const compareQueries = async (current: AnyDoc[], n: number) => {
      for (let q = 0; q < n; q++) {
        const filter = gen.filter();
        const sort = gen.sort();
        const skip = gen.chance(0.5) ? gen.int(10) : 0;
        const limit = gen.chance(0.7) ? 1 + gen.int(10) : 0;
        const expected = reference(current, filter).sort(byId);
        const page = reference(current, filter, sort, skip, limit).map((d) => d._id);
        for (const [name, c] of collections) {
          const context = `${name} seed ${seed} filter ${JSON.stringify(filter, regexJson)}`;
          const found = (await c.find(filter)).sort(byId);
          expect({ context, found }).toEqual({ context, found: expected });
          expect({ context, count: await c.count(filter) }).toEqual({
            context,
            count: expected.length,
          });
          const ordered = (await c.find(filter, { sort, skip, limit })).map((d) => d._id);
          expect({ context, sort, skip, limit, ordered }).toEqual({
            context,
            sort,
            skip,
            limit,
            ordered: page,
          });
          compared += 3;
        }
      }
    };

    await compareQueries(docs, QUERIES);

    const refDocs = clone(docs);
    for (let u = 0; u < UPDATES; u++) {
      const target = refDocs[gen.int(refDocs.length)]!;
      const { update, incOfNonNumber } = updateFor(gen, target);
      const before = clone(target);
      let expected: { ok: true } | { error: string };
      try {
        mingoUpdateOne(refDocs, { _id: target._id }, clone(update) as never);
        expected = { ok: true };
      } catch (error) {
        expected = { error: (error as Error).message };
      }
      for (const [name, c] of collections) {
        const context = `${name} seed ${seed} update ${JSON.stringify(update)} on ${JSON.stringify(before)}`;
        const got = await outcome(() => c.update(target._id, clone(update)));
        if ('error' in expected) {
          // Both refuse, for the same reason (a conflict is the only refusal mingo models).
          expect({ context, refused: 'error' in got && /conflict/.test(got.error) }).toEqual({
            context,
            refused: /conflict/.test(expected.error),
          });
        } else if (incOfNonNumber && 'error' in got) {
          // MongoDB refuses $inc of a non-number; mingo leaves it. Check the rule on the document.
          const paths = Object.keys(update.$inc ?? {});
          expect(
            paths.some((p) => !['number', 'undefined'].includes(typeof valueAt(before, p))),
          ).toBe(true);
        } else {
          expect({ context, got }).toEqual({ context, got: { ok: true } });
          expect({ context, doc: await c.get(target._id) }).toEqual({ context, doc: target });
        }
        compared++;
      }
      if (incOfNonNumber) {
        // MongoDB refuses the whole update; mingo applied the rest of it: take the adapter's document.
        const stored = (await collections[0]![1].get(target._id))!;
        for (const key of Object.keys(target)) delete target[key];
        Object.assign(target, stored);
      }
    }

    // updateMany over a filter, with one update that refuses nothing.
    for (let u = 0; u < 5; u++) {
      const filter = gen.filter();
      const update: Update = { $set: { c: gen.scalar() } };
      const { matchedCount } = (await import('mingo')).updateMany(
        refDocs,
        filter,
        clone(update) as never,
      );
      for (const [name, c] of collections) {
        const context = `${name} seed ${seed} updateMany ${JSON.stringify(filter, regexJson)}`;
        expect({ context, n: await c.updateMany(filter, clone(update)) }).toEqual({
          context,
          n: matchedCount,
        });
        expect({ context, docs: (await c.find()).sort(byId) }).toEqual({
          context,
          docs: [...refDocs].sort(byId),
        });
        compared += 2;
      }
    }

    await compareQueries(refDocs, QUERIES / 2);
    expect(compared).toBeGreaterThan(QUERIES * 9);
  });

  it('refuses what MongoDB refuses: conflicting update paths, like mingo', async () => {
    const c = store.collection('bare');
    await c.put({ _id: 'r', a: { b: 1 }, n: 1 });
    const conflicts: Update[] = [
      { $set: { a: 1 }, $inc: { a: 1 } },
      { $set: { a: 1 }, $unset: { 'a.b': '' } },
      { $max: { 'a.b': 2 }, $set: { a: {} } },
      { $setOnInsert: { n: 1 }, $inc: { n: 1 } },
    ];
    for (const update of conflicts) {
      const ref = [{ _id: 'r', a: { b: 1 }, n: 1 }];
      const mingoUpdate = { ...update } as Record<string, unknown>;
      // mingo has no $setOnInsert: as $set it stands for the same path claim.
      if (update.$setOnInsert) {
        mingoUpdate['$set'] = update.$setOnInsert;
        delete mingoUpdate['$setOnInsert'];
      }
      expect(() => mingoUpdateOne(ref, { _id: 'r' }, mingoUpdate as never)).toThrow(/conflict/);
      await expect(c.update('r', update)).rejects.toThrow(/conflict/);
      await expect(c.update('missing', update, { upsert: true })).rejects.toThrow(/conflict/);
    }
    expect(await c.get('r')).toEqual({ _id: 'r', a: { b: 1 }, n: 1 });
  });
});

/** RegExps print as /source/flags in failure messages. */
function regexJson(_key: string, value: unknown): unknown {
  return value instanceof RegExp ? String(value) : value;
}
