import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { request } from 'undici';
import { registerMessages } from '../shared/i18n/messages';
import { OPENAI_CLIENT } from './client-wire';
import type { Caller } from './relay-admission';
import type { LaneRoute } from './relay-fast-lane';
import { relayFront, relayFrontOf, relayLaneOf } from './relay-front';
import { RELAY_MESSAGES } from './relay.messages';

// The answers' texts are looked up in the catalogue the composition root fills.
registerMessages(RELAY_MESSAGES);

const EN = { 'accept-language': 'en' };

/** Writes `text` on a new connection and reads until the server closes it. */
function rawExchange(url: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

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
    front.get('/v1/items/:id', () => ({ relay: true }));
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

  it('hands every request outside the relay prefixes, untouched, to the app (hooks, routes, 404s)', async () => {
    const status = await request(`${url}/api/status`);
    expect(await status.body.json()).toEqual({ ok: true });
    const missing = await request(`${url}/v1x/nothing-here`, { method: 'POST', body: 'x' });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
    expect(appHooks).toEqual(['/api/status', '/v1x/nothing-here']);
  });

  it('answers an unknown path under a relay prefix itself, in the protocol of the path', async () => {
    const answers = await Promise.all(
      ['/v1/nothing-here', '/v1/messages/nothing', '/v1beta/nothing', '/suno/x', '/mj-fast/x'].map(
        async (path) => {
          const res = await request(`${url}${path}?q=1`, {
            method: 'POST',
            body: 'x',
            headers: EN,
          });
          return [path, res.statusCode, await res.body.json()];
        },
      ),
    );
    const openAi = (path: string) => ({
      error: {
        message: expect.stringContaining(`Invalid URL (POST ${path}) (request id: `),
        type: 'invalid_request_error',
        param: '',
        code: 'not_found',
      },
    });
    expect(answers).toEqual([
      ['/v1/nothing-here', 404, openAi('/v1/nothing-here')],
      [
        '/v1/messages/nothing',
        404,
        {
          type: 'error',
          error: {
            type: 'not_found_error',
            message: expect.stringContaining('Invalid URL (POST /v1/messages/nothing)'),
          },
        },
      ],
      [
        '/v1beta/nothing',
        404,
        {
          error: {
            code: 404,
            status: 'NOT_FOUND',
            message: expect.stringContaining('Invalid URL (POST /v1beta/nothing)'),
          },
        },
      ],
      ['/suno/x', 404, openAi('/suno/x')],
      ['/mj-fast/x', 404, openAi('/mj-fast/x')],
    ]);
    expect(appHooks).toEqual([]);
  });

  it('tells a wrong method (405, with Allow) from an unknown path', async () => {
    const wrong = await request(`${url}/v1/echo`, { method: 'PUT', body: 'x', headers: EN });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(await wrong.body.json()).toEqual({
      error: expect.objectContaining({
        message: expect.stringContaining('Invalid method for URL (PUT /v1/echo)'),
        code: 'method_not_allowed',
      }),
    });
  });

  it("shapes the router's 414 and Node's 431 on relay paths; elsewhere Fastify's stay", async () => {
    const long = await request(`${url}/v1/items/${'x'.repeat(3000)}`);
    expect(long.statusCode).toBe(414);
    expect(await long.body.json()).toEqual({
      error: expect.objectContaining({ code: 'uri_too_long', type: 'invalid_request_error' }),
    });
    const raw = (path: string) =>
      rawExchange(url, `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`);
    const relay = await raw('/v1/models');
    expect(relay).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(relay.slice(relay.indexOf('\r\n\r\n') + 4))).toEqual({
      error: expect.objectContaining({ code: 'headers_too_large', type: 'invalid_request_error' }),
    });
    const console = await raw('/api/status');
    expect(console).toMatch(/^HTTP\/1\.1 431 /);
    expect(console).toContain('"statusCode":431');
  });

  it('sets the server timeouts Fastify sets on a server it creates', () => {
    expect(app.server.keepAliveTimeout).toBe(72_000);
    expect(relayFrontOf(app.server)).toBeDefined();
  });
});

const JSON_TYPE = { 'content-type': 'application/json' };

/** A fast-lane route that admits everyone and answers `lane`. */
const laneEcho: LaneRoute = {
  bodyLimit: 1024,
  wire: OPENAI_CLIENT,
  admit: () => ({ ok: true, caller: {} as Caller }),
  refuse: () => undefined,
  handle: ({ res }) => void res.end('lane'),
};

describe('relayFront close', () => {
  it('once the front is closed, relay routes answer 503 and close the connection; the app still serves until it closes', async () => {
    const app = Fastify({ serverFactory: relayFront({ trustProxy: false }).serverFactory });
    app.get('/api/status', () => ({ ok: true }));
    const front = relayFrontOf(app.server)!;
    front.get('/v1/models', () => ({ relay: true }));
    front.post('/v1/chat/completions', () => ({ fastify: true }));
    relayLaneOf(app.server)!.add('/v1/chat/completions', laneEcho);
    await front.ready();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const chat = () =>
      request(`${url}/v1/chat/completions`, { method: 'POST', headers: JSON_TYPE, body: '{}' });
    try {
      expect(await (await chat()).body.text()).toBe('lane');
      await front.close();
      const models = await request(`${url}/v1/models`);
      expect(models.statusCode).toBe(503);
      expect(models.headers.connection).toBe('close');
      await models.body.dump();
      // The fast lane closes with the instance: the same 503, not its own answer.
      const closed = await chat();
      expect(closed.statusCode).toBe(503);
      await closed.body.dump();
      const status = await request(`${url}/api/status`);
      expect(await status.body.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
    expect(app.server.listening).toBe(false);
  });
});
