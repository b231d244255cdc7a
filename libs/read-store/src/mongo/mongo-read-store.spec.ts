import { readStoreContract } from '../testing/read-store.contract';
import { connectMongo, dbNameFromUrl, maskCredentials } from './connect-mongo';
import { closedPort } from '../testing/closed-port';

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

  it('reads the database name from the URL', () => {
    expect(dbNameFromUrl('mongodb://h1:27017,h2:27017/gateway?replicaSet=rs0')).toBe('gateway');
    expect(dbNameFromUrl('mongodb://localhost:27017')).toBe('tollgate');
    expect(dbNameFromUrl('mongodb://localhost:27017/?replicaSet=rs0')).toBe('tollgate');
    expect(maskCredentials('mongodb+srv://u:p@cluster/x')).toBe('mongodb+srv://u:***@cluster/x');
  });
});
