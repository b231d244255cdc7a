import { readStoreContract } from '../testing/read-store.contract';
import {
  connectMongo,
  createMongoClient,
  dbNameFromUrl,
  maskCredentials,
  openMongoReadStore,
} from './connect-mongo';
import { closedPort } from '../testing/closed-port';
import { FakeMongoServer } from '../testing/fake-mongo';

// No MongoDB server can run on the build machines, so the contract runs only when READ_STORE_URL
// points at one (see eventstore/ for a compose file); the fail-fast behaviour is tested everywhere.
const mongoUrl = process.env['READ_STORE_URL'];
const describeIfMongo = mongoUrl ? describe : describe.skip;

describeIfMongo('MongoReadStore contract', () => {
  readStoreContract(() => connectMongo(mongoUrl!));
});

describe('connectMongo', () => {
  it('fails fast when nothing listens', async () => {
    const port = await closedPort();
    const url = `mongodb://user:secret@127.0.0.1:${port}/tollgate`;
    const started = Date.now();
    await expect(connectMongo(url, { timeoutMs: 500 })).rejects.toThrow(
      `MongoDB unreachable at mongodb://user:***@127.0.0.1:${port}/tollgate`,
    );
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('keeps the short deadline on the start-up probe only: the long-lived client waits out an election', async () => {
    const client = createMongoClient('mongodb://127.0.0.1:27017/tollgate?replicaSet=rs0');
    try {
      // The driver's defaults: 30 s to find a primary, enough for a replica-set election.
      expect(client.options.serverSelectionTimeoutMS).toBe(30_000);
      expect(client.options.connectTimeoutMS).toBe(30_000);
    } finally {
      await client.close();
    }
  });

  it('refuses a standalone server with one line naming the way out', async () => {
    const server = new FakeMongoServer({ standalone: true });
    const url = 'mongodb://app:pw@db:27017/tollgate';
    await expect(openMongoReadStore(server.client(), url)).rejects.toThrow(
      new Error(
        'MongoDB at mongodb://app:***@db:27017/tollgate is a standalone server: projections need ' +
          'transactions; run a one-member replica set (docs/engines.md) or set ' +
          'READ_STORE_ALLOW_STANDALONE=on',
      ),
    );
  });

  it('accepts a standalone server when allowed, without atomic transactions', async () => {
    const server = new FakeMongoServer({ standalone: true });
    const url = 'mongodb://db:27017/tollgate';
    const store = await openMongoReadStore(server.client(), url, { allowStandalone: true });
    expect(store.atomicTransactions).toBe(false);
    const replicaSet = await openMongoReadStore(new FakeMongoServer().client(), url);
    expect(replicaSet.atomicTransactions).toBe(true);
  });

  it('reads the database name from the URL', () => {
    expect(dbNameFromUrl('mongodb://h1:27017,h2:27017/gateway?replicaSet=rs0')).toBe('gateway');
    expect(dbNameFromUrl('mongodb://localhost:27017')).toBe('tollgate');
    expect(dbNameFromUrl('mongodb://localhost:27017/?replicaSet=rs0')).toBe('tollgate');
    expect(maskCredentials('mongodb+srv://u:p@cluster/x')).toBe('mongodb+srv://u:***@cluster/x');
  });
});
