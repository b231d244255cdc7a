import { createServer, type Server, type Socket } from 'node:net';
import { eventStoreContract } from '../testing/event-store.contract';
import { createEventStore } from '../create-event-store';
import { SubscriptionRecorder } from '../testing/subscription-recorder';
import { event } from '../testing/event-store.contract';
import { connectEsdb, redactUrl } from './connect-esdb';
import { EsdbEventStore } from './esdb-event-store';
import { FakeEsdbClient } from '../testing/fake-esdb-client';

const url = process.env.EVENT_STORE_URL;

// No EventStoreDB server can run on the build machines, so the contract runs only when a server is
// provided (EVENT_STORE_URL=esdb://localhost:2113?tls=false, see eventstore/).
const describeIfEsdb = url ? describe : describe.skip;

describeIfEsdb('EsdbEventStore against EVENT_STORE_URL', () => {
  // A shared server: never empty; it deduplicates ids only as the contract's ESDB branch says.
  eventStoreContract(() => connectEsdb(url!), { timeoutMs: 20_000 });
});

// The adapter's own logic against an in-process double of the client (see FakeEsdbClient for what
// that does and does not prove), once per way a server signals the end of catch-up.
describe('EsdbEventStore over a fake client, server sends CaughtUp', () => {
  eventStoreContract(
    async () => new EsdbEventStore(new FakeEsdbClient({ sendsCaughtUp: true }).asClient()),
  );
});

describe('EsdbEventStore over a fake client, older server without CaughtUp', () => {
  eventStoreContract(
    async () => new EsdbEventStore(new FakeEsdbClient({ sendsCaughtUp: false }).asClient()),
  );
});

// What a production cluster adds: appends that overtake each other on the wire, a bounded cache of
// recent ids, and (servers before 22.6) no positions in append results or stream reads.
describe('EsdbEventStore over a fake client that reorders appends and knows no positions', () => {
  eventStoreContract(
    async () =>
      new EsdbEventStore(
        new FakeEsdbClient({
          sendsCaughtUp: true,
          reorderAppends: true,
          recentIdsCacheSize: 100,
          unknownPositions: true,
        }).asClient(),
      ),
  );
});

describe('EsdbEventStore subscription flow control (fake client)', () => {
  it('pauses the server stream while the handler is behind and loses nothing', async () => {
    const store = new EsdbEventStore(new FakeEsdbClient({ sendsCaughtUp: true }).asClient());
    try {
      for (let i = 0; i < 25; i += 1) {
        await store.append(
          `bulk-${i}`,
          Array.from({ length: 100 }, (_, j) => event(`E${i * 100 + j}`)),
          'no_stream',
        );
      }
      const recorder = new SubscriptionRecorder();
      const subscription = store.subscribeToAll(
        { fromPosition: 'start', maxBatchSize: 50 },
        recorder.handlers,
      );
      await recorder.waitFor(() => recorder.caughtUpCalls > 0, 'catch-up');
      await store.append('bulk-late', [event('Late')], 'no_stream');
      await recorder.waitFor(() => recorder.events.length === 2501, '2501 events');
      await subscription.stop();
      expect(recorder.deliveredAtCaughtUp).toBe(2500);
      expect(recorder.events.map((e) => e.type)).toEqual([
        ...Array.from({ length: 2500 }, (_, i) => `E${i}`),
        'Late',
      ]);
      expect(Math.max(...recorder.rawBatchSizes)).toBeLessThanOrEqual(50);
    } finally {
      await store.close();
    }
  });
});

describe('connectEsdb fails fast', () => {
  it('when nothing listens on the port', async () => {
    const port = await unusedPort();
    const started = Date.now();
    await expect(
      connectEsdb(`esdb://127.0.0.1:${port}?tls=false`, { timeoutMs: 2500 }),
    ).rejects.toThrow(`EventStoreDB unreachable at esdb://127.0.0.1:${port}?tls=false`);
    expect(Date.now() - started).toBeLessThan(3500);
  });

  describe('when the port accepts TCP but never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('rejects within its own timeout', async () => {
      const { port } = server.address() as { port: number };
      const started = Date.now();
      await expect(
        connectEsdb(`esdb://127.0.0.1:${port}?tls=false`, { timeoutMs: 1500 }),
      ).rejects.toThrow(/EventStoreDB unreachable at esdb:\/\/127\.0\.0\.1/);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(1400);
      expect(elapsed).toBeLessThan(3000);
    });

    it('through createEventStore, with the default timeout', async () => {
      const { port } = server.address() as { port: number };
      const started = Date.now();
      await expect(
        createEventStore({
          eventStoreUrl: `esdb://127.0.0.1:${port}?tls=false`,
          dataDir: '/nonexistent',
        }),
      ).rejects.toThrow(/unreachable/);
      expect(Date.now() - started).toBeLessThan(3500);
    });
  });

  it('hides the password in the error', async () => {
    const port = await unusedPort();
    await expect(connectEsdb(`esdb://admin:changeit@127.0.0.1:${port}?tls=false`)).rejects.toThrow(
      `EventStoreDB unreachable at esdb://admin:***@127.0.0.1:${port}?tls=false`,
    );
    expect(redactUrl('esdb://a:b@h:1,h:2?tls=true')).toBe('esdb://a:***@h:1,h:2?tls=true');
  });

  it('rejects a URL that is not a connection string', async () => {
    await expect(
      createEventStore({ eventStoreUrl: 'mongodb://x', dataDir: '/nonexistent' }),
    ).rejects.toThrow(/esdb:\/\//);
    await expect(connectEsdb('esdb://')).rejects.toThrow(/Invalid EventStoreDB connection string/);
  });
});

/** A port nobody listens on: bind to 0, read it, release it. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
