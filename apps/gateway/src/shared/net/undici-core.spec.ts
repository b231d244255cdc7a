import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a request brought to the test server: its method, path with query, and body. */
interface Seen {
  method: string;
  url: string;
  body: string;
}

describe('undici-core: undici from its files, not its index', () => {
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString() });
        res.end(`answer ${seen.length}`);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('gives the very classes and connector undici exports, so an upgrade that moves them fails here', () => {
    const core = jest.requireActual<typeof import('./undici-core')>('./undici-core');
    const index = jest.requireActual<typeof import('undici')>('undici');
    expect(core.Pool).toBe(index.Pool);
    expect(core.Agent).toBe(index.Agent);
    expect(core.buildConnector).toBe(index.buildConnector);
  });

  it('works where nothing loaded the index: a pool requests, requestUrl splits the URL', async () => {
    let core!: typeof import('./undici-core');
    jest.isolateModules(() => {
      // The index is refused in this registry: everything below runs on undici's files alone.
      jest.doMock('undici', () => {
        throw new Error("undici's index was loaded");
      });
      core = jest.requireActual<typeof import('./undici-core')>('./undici-core');
    });
    const pool = new core.Pool(origin);
    const agent = new core.Agent();
    try {
      const pooled = await pool.request({ origin, path: '/pooled?x=1', method: 'GET' });
      expect(await pooled.body.text()).toMatch(/^answer \d+$/);
      const posted = await core.requestUrl(`${origin}/hook?a=b&c=d`, {
        method: 'POST',
        body: 'payload',
        dispatcher: agent,
      });
      expect(posted.statusCode).toBe(200);
      await posted.body.dump();
      // No dispatcher given: undici's global agent, as undici's own `request` uses.
      const viaGlobal = await core.requestUrl(`${origin}/plain`, { method: 'GET' });
      await viaGlobal.body.dump();
      await expect(core.requestUrl('not a url', { method: 'GET' })).rejects.toMatchObject({
        code: 'ERR_INVALID_URL',
      });
      expect(seen.map(({ method, url, body }) => `${method} ${url} ${body}`)).toEqual([
        'GET /pooled?x=1 ',
        'POST /hook?a=b&c=d payload',
        'GET /plain ',
      ]);
    } finally {
      await Promise.all([pool.close(), agent.close()]);
    }
  });
});
