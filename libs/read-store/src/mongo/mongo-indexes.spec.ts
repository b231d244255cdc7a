import type { CollectionSpec } from '../read-store.port';
import { FakeMongoServer, MONGO_CODES } from '../testing/fake-mongo';

const old: CollectionSpec = {
  name: 'items',
  indexes: [{ fields: { name: 1 } }, { fields: { code: 1 }, unique: true }],
};
/** The next version: `code` no longer unique, `name` gone, `group` new. */
const next: CollectionSpec = {
  name: 'items',
  indexes: [{ fields: { code: 1 } }, { fields: { group: 1 } }],
};

describe('MongoReadStore.declare (fake server)', () => {
  let server: FakeMongoServer;
  beforeEach(async () => {
    server = new FakeMongoServer();
    await server.readStore().declare([old]);
  });

  it('reconciles by default: drops what the declaration no longer lists, creates the rest', async () => {
    await server.readStore().declare([next]);
    expect(server.indexNames('items').sort()).toEqual([
      '_id_',
      'ix_items__code_a',
      'ix_items__group_a',
    ]);
  });

  it('with reconcileIndexes false creates what is missing and drops nothing', async () => {
    await server.readStore().declare([next, { name: 'fresh' }], { reconcileIndexes: false });
    expect(server.indexNames('items').sort()).toEqual([
      '_id_',
      'ix_items__code_a',
      'ix_items__code_a__u',
      'ix_items__group_a',
      'ix_items__name_a',
    ]);
    expect(server.indexNames('fresh')).toEqual(['_id_']);
  });

  it('two processes reconciling at once both succeed: the second drop finds the index gone', async () => {
    await Promise.all([server.readStore().declare([next]), server.readStore().declare([next])]);
    expect(server.answeredCodes).toContain(MONGO_CODES.indexNotFound);
    expect(server.indexNames('items').sort()).toEqual([
      '_id_',
      'ix_items__code_a',
      'ix_items__group_a',
    ]);
  });

  it('a concurrent create of the same key under another name is left to the reconciling process', async () => {
    // An older and a newer declaration of one key, by two processes starting together.
    const a: CollectionSpec = { name: 'pairs', indexes: [{ fields: { owner: 1 } }] };
    const b: CollectionSpec = { name: 'pairs', indexes: [{ fields: { owner: 1, _id: 1 } }] };
    await Promise.all([
      server.readStore().declare([a], { reconcileIndexes: false }),
      server.readStore().declare([b], { reconcileIndexes: false }),
    ]);
    expect(server.answeredCodes).toContain(MONGO_CODES.indexOptionsConflict);
    expect(server.indexNames('pairs')).toHaveLength(2);
  });
});
