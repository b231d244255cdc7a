import type { ReadStore, Update } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { countWrites as counting, snapshot } from '../testing/sample-projections';
import { BatchWrites, type BufferedUpdateOptions } from './batch-writes';

type Step = [id: string, update: Update, options?: BufferedUpdateOptions];

describe('BatchWrites', () => {
  const stores: ReadStore[] = [];
  const newStore = async () => {
    const store = new SqliteReadStore(':memory:');
    stores.push(store);
    await store.declare([{ name: 'docs' }]);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  /** Applies the steps one by one (the reference) and through the buffer; returns both stores. */
  async function both(steps: readonly Step[], seed: Record<string, unknown>[] = []) {
    const [oneByOne, buffered] = [await newStore(), await newStore()];
    for (const store of [oneByOne, buffered])
      for (const doc of seed)
        await store.collection('docs').put({ _id: String(doc['_id']), ...doc });
    for (const [id, update, options] of steps) {
      const writes = new BatchWrites(true);
      writes.update('docs', id, update, options);
      await writes.flush(oneByOne);
    }
    const writes = new BatchWrites(true);
    for (const [id, update, options] of steps) writes.update('docs', id, update, options);
    const written = await buffered.transaction(async (tx) => {
      const { session, writes: seen } = counting(tx);
      await writes.flush(session);
      return seen;
    });
    return {
      expected: await snapshot(oneByOne, ['docs']),
      actual: await snapshot(buffered, ['docs']),
      written,
    };
  }

  it('merges increments, maxima and sets per document into one write each', async () => {
    const steps: Step[] = [];
    for (let i = 1; i <= 50; i++) {
      steps.push([
        'u1',
        { $inc: { quota: -i, used: i, count: 1 }, $max: { seen: i % 7 }, $set: { last: i } },
      ]);
      steps.push(['u2', { $inc: { used: 2 * i } }]);
    }
    const { expected, actual, written } = await both(steps, [
      { _id: 'u1', quota: 1000, used: 0, count: 0, seen: 3 },
      { _id: 'u2', used: 5 },
    ]);
    expect(actual).toEqual(expected);
    expect(actual['docs']).toEqual([
      { _id: 'u1', quota: 1000 - 1275, used: 1275, count: 50, seen: 6, last: 50 },
      { _id: 'u2', used: 5 + 2550 },
    ]);
    expect(written.sort()).toEqual(['u1', 'u2']);
  });

  it('merges upserts with the same $setOnInsert, creating the document once', async () => {
    const step: Step = [
      'k',
      { $setOnInsert: { user: 7, hour: 3600 }, $inc: { count: 1, quota: 5 } },
      { upsert: true },
    ];
    const { expected, actual, written } = await both([step, step, step]);
    expect(actual).toEqual(expected);
    expect(actual['docs']).toEqual([{ _id: 'k', user: 7, hour: 3600, count: 3, quota: 15 }]);
    expect(written).toEqual(['k']);
  });

  it('keeps writes apart, in order, where merging would change the result', async () => {
    const cases: Array<{ steps: Step[]; writes: number }> = [
      // $set then $inc of the same field: the increment applies to the set value.
      {
        steps: [
          ['a', { $set: { n: 10 } }],
          ['a', { $inc: { n: 1 } }],
        ],
        writes: 2,
      },
      // A field and its parent under one operator.
      {
        steps: [
          ['a', { $set: { o: { x: 1 } } }],
          ['a', { $set: { 'o.y': 2 } }],
        ],
        writes: 2,
      },
      // A field under one operator, a field under it under another.
      {
        steps: [
          ['a', { $set: { o: { x: 1 } } }],
          ['a', { $inc: { 'o.x': 1 } }],
        ],
        writes: 2,
      },
      // $unset then $inc: the field comes back from zero.
      {
        steps: [
          ['a', { $unset: { n: '' } }],
          ['a', { $inc: { n: 4 } }],
        ],
        writes: 2,
      },
      // A plain update of a missing document does nothing; the upsert after it creates it alone.
      {
        steps: [
          ['b', { $inc: { n: 1 } }],
          ['b', { $inc: { n: 2 } }, { upsert: true }],
        ],
        writes: 2,
      },
      // Once created, a new $setOnInsert field must not appear.
      {
        steps: [
          ['b', { $setOnInsert: { x: 1 } }, { upsert: true }],
          ['b', { $setOnInsert: { y: 2 } }, { upsert: true }],
        ],
        writes: 2,
      },
    ];
    for (const { steps, writes } of cases) {
      const { expected, actual, written } = await both(steps, [{ _id: 'a', n: 3 }]);
      expect(actual).toEqual(expected);
      expect(written).toHaveLength(writes);
    }
  });

  it('merges fields that only share the start of a name (`n` and `nn`)', async () => {
    const { expected, actual, written } = await both(
      [
        ['a', { $inc: { n: 1 } }],
        ['a', { $inc: { nn: 2 }, $set: { 'n2.x': 1 } }],
        ['a', { $inc: { n: 1, nn: 1 } }],
      ],
      [{ _id: 'a', n: 3 }],
    );
    expect(actual).toEqual(expected);
    expect(actual['docs']).toEqual([{ _id: 'a', n: 5, nn: 3, n2: { x: 1 } }]);
    expect(written).toEqual(['a']);
  });

  it('equals one-by-one application on random sequences', async () => {
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pool: Array<() => Step> = [
      () => [`d${random(3)}`, { $inc: { a: random(9) - 4 } }],
      () => [`d${random(3)}`, { $inc: { a: 1, b: random(5) }, $max: { m: random(20) } }],
      () => [`d${random(3)}`, { $set: { s: random(4) } }],
      () => [`d${random(3)}`, { $set: { a: random(100) } }],
      () => [`d${random(3)}`, { $unset: { s: '' } }],
      () => [`d${random(3)}`, { $setOnInsert: { c: 1 }, $inc: { n: 1 } }, { upsert: true }],
      () => [`d${random(3)}`, { $max: { m: random(20) } }],
    ];
    let [stepCount, writeCount] = [0, 0];
    for (let round = 0; round < 20; round++) {
      const steps = Array.from({ length: 30 }, () => pool[random(pool.length)]!());
      const { expected, actual, written } = await both(steps, [{ _id: 'd0', a: 1 }]);
      expect(actual).toEqual(expected);
      expect(written.length).toBeLessThanOrEqual(steps.length);
      [stepCount, writeCount] = [stepCount + steps.length, writeCount + written.length];
    }
    expect(writeCount).toBeLessThan(stepCount / 2);
  });

  describe('guarded by the source position', () => {
    const receipt = (position: number, amount: number): Step => [
      'u',
      { $inc: { quota: -amount, used: amount } },
      { position },
    ];

    it('writes once with the first position as guard and records the last', async () => {
      const { actual, written } = await both(
        [receipt(11, 1), receipt(12, 2), receipt(15, 3)],
        [{ _id: 'u', quota: 10, used: 0, source_position: 10 }],
      );
      expect(actual['docs']).toEqual([{ _id: 'u', quota: 4, used: 6, source_position: 15 }]);
      expect(written).toEqual(['u']);
    });

    it('changes nothing when the batch is applied again', async () => {
      const store = await newStore();
      await store.collection('docs').put({ _id: 'u', quota: 10, used: 0, source_position: 10 });
      for (let run = 0; run < 2; run++) {
        const writes = new BatchWrites(true);
        for (const [id, update, options] of [receipt(11, 1), receipt(12, 2)])
          writes.update('docs', id, update, options);
        await store.transaction((session) => writes.flush(session));
      }
      expect(await store.collection('docs').get('u')).toEqual({
        _id: 'u',
        quota: 7,
        used: 3,
        source_position: 12,
      });
    });

    it('without coalescing (no atomic transactions) keeps one guarded write per event', async () => {
      const store = await newStore();
      await store.collection('docs').put({ _id: 'u', quota: 10, used: 0, source_position: 12 });
      const { session, writes: written } = counting(store);
      const writes = new BatchWrites(false);
      // A replay after a crash: 11 and 12 landed before, 13 did not.
      for (const [id, update, options] of [receipt(11, 1), receipt(12, 2), receipt(13, 4)])
        writes.update('docs', id, update, options);
      await writes.flush(session);
      expect(written).toEqual(['u', 'u', 'u']);
      expect(await store.collection('docs').get('u')).toEqual({
        _id: 'u',
        quota: 6,
        used: 4,
        source_position: 13,
      });
    });

    it('refuses a guarded upsert', () => {
      expect(() =>
        new BatchWrites(true).update(
          'docs',
          'x',
          { $inc: { n: 1 } },
          { upsert: true, position: 1 },
        ),
      ).toThrow(/cannot upsert/);
    });
  });
});
