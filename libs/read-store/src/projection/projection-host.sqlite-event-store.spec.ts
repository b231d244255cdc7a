import { SqliteEventStore } from '@tollgate/event-store';
import type { ReadStore } from '../read-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import {
  append,
  sampleCollections,
  seedLog,
  snapshot,
  statsProjection,
  usersProjection,
} from '../testing/sample-projections';
import { ProjectionHost } from './projection-host';
import { rebuildProjections } from './rebuild';

// The same scenarios as with the in-memory fake, against the real embedded event store: its
// positions, batching and catch-up signal must fit the runner's assumptions.
describe('projections over SqliteEventStore', () => {
  let events: SqliteEventStore;
  const stores: ReadStore[] = [];
  let host: ProjectionHost | undefined;
  const newStore = () => {
    const store = new SqliteReadStore(':memory:');
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    events = SqliteEventStore.open(':memory:');
  });
  afterEach(async () => {
    await host?.stop();
    host = undefined;
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await events.close();
  });

  it('catches up, follows live events and matches a rebuild', async () => {
    await seedLog(events, 6, 4);
    const incremental = newStore();
    host = new ProjectionHost(events, incremental, [usersProjection(), statsProjection()], {
      maxBatchSize: 9,
    });
    await host.start();
    const { position } = await append(events, 'billing-1', 'QuotaAdded', {
      userId: '1',
      amount: 50,
    });
    expect(await host.waitFor(position, 2000)).toBe(true);
    expect((await incremental.collection('test_users').get('1'))?.['quota']).toBe(70);

    const rebuilt = newStore();
    await rebuildProjections(events, rebuilt, [usersProjection(), statsProjection()], {
      batchSize: 11,
    });
    expect(await snapshot(rebuilt, sampleCollections)).toEqual(
      await snapshot(incremental, sampleCollections),
    );
  });
});
