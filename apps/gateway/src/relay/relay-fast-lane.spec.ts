import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { RelayError } from '@tollgate/relay';
import { request } from 'undici';
import { registerMessages } from '../shared/i18n/messages';
import { clientIpOf } from './client-ip';
import { OPENAI_CLIENT } from './client-wire';
import type { Caller } from './relay-admission';
import { type LaneRequest, type LaneRoute, RelayFastLane } from './relay-fast-lane';
import { RELAY_MESSAGES } from './relay.messages';

registerMessages(RELAY_MESSAGES);

const CALLER = { user: { id: 7 }, token: { id: 3 } } as unknown as Caller;
const JSON_TYPE = { 'content-type': 'application/json', 'accept-language': 'en' };

/** Writes `text` on a new connection and reads until the server closes it or 1 s passes. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => socket.destroy(), 1000);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

describe('RelayFastLane', () => {
  let server: Server;
  let port: number;
  let lane: RelayFastLane;
  const handled: LaneRequest[] = [];
  const refused: string[] = [];
  const fallback: string[] = [];
  let admit = true;
  let handlerThrows = false;

  const route: LaneRoute = {
    bodyLimit: 64,
    wire: OPENAI_CLIENT,
    admit: () =>
      admit
        ? { ok: true, caller: CALLER }
        : { ok: false, error: new RelayError(401, 'no key', 'authentication_error', 'no_key') },
    refuse: (req, res, error) => {
      refused.push(req.url ?? '');
      res.writeHead(error.status).end(error.message);
    },
    handle: (lr) => {
      if (handlerThrows) throw new Error('secret detail');
      handled.push(lr);
      lr.res.writeHead(200).end(`lane:${lr.body.toString()}`);
    },
  };

  beforeAll(async () => {
    lane = new RelayFastLane(clientIpOf(false));
    lane.add('/v1/chat/completions', route);
    server = createServer((req, res) => {
      if (lane.serve(req, res)) return;
      fallback.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(200).end('fastify');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    handled.length = 0;
    refused.length = 0;
    fallback.length = 0;
    admit = true;
    handlerThrows = false;
  });

  const post = (path: string, body: string, headers: Record<string, string> = JSON_TYPE) =>
    request(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body });

  it('serves a POST to the exact path with a JSON type: the whole body, the caller, the peer', async () => {
    const answer = await post('/v1/chat/completions', '{"model":"m"}');
    expect(await answer.body.text()).toBe('lane:{"model":"m"}');
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatchObject({ caller: CALLER, ip: '127.0.0.1', lang: 'en' });
    expect(fallback).toEqual([]);
  });

  it('leaves every other spelling to the framework: query, trailing slash, method, media type', async () => {
    await (await post('/v1/chat/completions?x=1', '{}')).body.text();
    await (await post('/v1/chat/completions/', '{}')).body.text();
    await (await post('/v1/chat/completions', '{}', { 'content-type': 'text/plain' })).body.text();
    await (
      await post('/v1/chat/completions', '{}', { 'content-type': 'Application/JSON' })
    ).body.text();
    await (await request(`http://127.0.0.1:${port}/v1/chat/completions`)).body.text();
    expect(handled).toEqual([]);
    expect(fallback).toEqual([
      'POST /v1/chat/completions?x=1',
      'POST /v1/chat/completions/',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
      'GET /v1/chat/completions',
    ]);
  });

  it('refuses at the headers: the handler never runs', async () => {
    admit = false;
    const answer = await post('/v1/chat/completions', '{"model":"m"}');
    expect(answer.statusCode).toBe(401);
    expect(await answer.body.text()).toBe('no key');
    expect(refused).toEqual(['/v1/chat/completions']);
    expect(handled).toEqual([]);
  });

  it('refuses a body over the limit with 413 in the route protocol, the limit declared or not', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(100) });
    const declared = await post('/v1/chat/completions', big);
    expect(declared.statusCode).toBe(413);
    expect(await declared.body.json()).toMatchObject({ error: { code: 'request_too_large' } });
    const chunked = await rawExchange(
      port,
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n' +
        `transfer-encoding: chunked\r\n\r\n${(100).toString(16)}\r\n${'x'.repeat(100)}\r\n0\r\n\r\n`,
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked).toContain('request_too_large');
    expect(handled).toEqual([]);
  });

  it('answers a handler that threw with a 500 that says nothing of the cause', async () => {
    handlerThrows = true;
    const answer = await post('/v1/chat/completions', '{}');
    expect(answer.statusCode).toBe(500);
    const text = await answer.body.text();
    expect(text).toContain('internal_error');
    expect(text).not.toContain('secret detail');
  });

  it('hands everything to the framework once closed', async () => {
    const closing = new RelayFastLane(clientIpOf(false));
    closing.add('/v1/chat/completions', route);
    closing.close();
    const req = {
      method: 'POST',
      url: '/v1/chat/completions',
      headers: JSON_TYPE,
    } as unknown as IncomingMessage;
    expect(closing.serve(req, {} as never)).toBe(false);
  });
});

describe('clientIpOf', () => {
  const req = (remote: string, forwarded?: string) =>
    ({
      socket: { remoteAddress: remote },
      connection: { remoteAddress: remote },
      headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    }) as unknown as IncomingMessage;

  it('is the TCP peer when no proxy is trusted, whatever the header says', () => {
    expect(clientIpOf(false)(req('10.0.0.9', '1.2.3.4'))).toBe('10.0.0.9');
  });

  it('walks back one trusted hop', () => {
    expect(clientIpOf(1)(req('10.0.0.9', '6.6.6.6, 1.2.3.4'))).toBe('1.2.3.4');
  });

  it('walks back trusted addresses only', () => {
    const ip = clientIpOf(['10.0.0.0/8']);
    expect(ip(req('10.0.0.9', '6.6.6.6, 1.2.3.4'))).toBe('1.2.3.4');
    expect(ip(req('192.168.1.1', '1.2.3.4'))).toBe('192.168.1.1');
  });
});
