import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { relayFront, relayFrontOf } from './relay-front';

describe('relayFront', () => {
  let app: FastifyInstance;
  let url: string;
  const appHooks: string[] = [];

  beforeAll(async () => {
    app = Fastify({ serverFactory: relayFront({ trustProxy: false }).serverFactory });
    app.addHook('onRequest', (req, _reply, done) => {
      appHooks.push(req.url);
      done();
    });
    app.get('/api/status', () => ({ ok: true }));
    const front = relayFrontOf(app.server)!;
    front.post('/v1/echo', (req) => ({ body: req.body, ip: req.ip }));
    front.get('/v1/models', () => ({ relay: true }));
    await front.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await relayFrontOf(app.server)?.close();
    await app.close();
  });

  beforeEach(() => {
    appHooks.length = 0;
  });

  it('serves relay routes on its own instance: none of the app hooks run', async () => {
    const models = await request(`${url}/v1/models`);
    expect(await models.body.json()).toEqual({ relay: true });
    const echo = await request(`${url}/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await echo.body.json()).toEqual({ body: { a: 1 }, ip: '127.0.0.1' });
    expect(appHooks).toEqual([]);
  });

  it('hands every other request, untouched, to the app (hooks, routes, 404s)', async () => {
    const status = await request(`${url}/api/status`);
    expect(await status.body.json()).toEqual({ ok: true });
    const missing = await request(`${url}/v1/nothing-here`, { method: 'POST', body: 'x' });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
    expect(appHooks).toEqual(['/api/status', '/v1/nothing-here']);
  });

  it('sets the server timeouts Fastify sets on a server it creates', () => {
    expect(app.server.keepAliveTimeout).toBe(72_000);
    expect(relayFrontOf(app.server)).toBeDefined();
  });
});

describe('relayFront close', () => {
  it('once the front is closed, relay routes answer 503 and close the connection; the app still serves until it closes', async () => {
    const app = Fastify({ serverFactory: relayFront({ trustProxy: false }).serverFactory });
    app.get('/api/status', () => ({ ok: true }));
    const front = relayFrontOf(app.server)!;
    front.get('/v1/models', () => ({ relay: true }));
    await front.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      await front.close();
      const models = await request(`${url}/v1/models`);
      expect(models.statusCode).toBe(503);
      expect(models.headers.connection).toBe('close');
      await models.body.dump();
      const status = await request(`${url}/api/status`);
      expect(await status.body.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
    expect(app.server.listening).toBe(false);
  });
});
