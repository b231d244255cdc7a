import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { errorText, requestWhole } from './whole-answer';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real server on loopback whose answer each test sets, and an undici Pool to it. */
describe('requestWhole', () => {
  let server: Server;
  let pool: Pool;
  let handler: Handler;
  const limits = { success: 1000, error: 10 };
  const get = () => requestWhole(pool, { method: 'GET', path: '/' }, limits);

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  });
  afterAll(async () => {
    await pool.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives a 2xx answer whole: its status, its headers as request() names them, its bytes', async () => {
    handler = (_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Twice': ['a', 'b'] });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 5);
    };
    const answer = await get();
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-twice']).toEqual(['a', 'b']);
    expect(answer.whole.toString()).toBe('{"a":1}');
  });

  it('skips an early 103 and answers with the final head', async () => {
    handler = (_req, res) => {
      res.writeEarlyHints({ link: '</a.css>; rel=preload' });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    };
    const answer = await get();
    expect([answer.statusCode, answer.whole.toString()]).toEqual([200, 'ok']);
  });

  it('refuses a 2xx answer over its limit with the error the stream reader gives', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.end('x'.repeat(limits.success + 1));
    };
    await expect(get()).rejects.toMatchObject({ code: 'TOLLGATE_TOO_LARGE' });
  });

  it("keeps a failed answer's first bytes only, and reads the rest so the connection stays", async () => {
    let sockets = 0;
    server.on('connection', () => sockets++);
    handler = (_req, res) => {
      res.writeHead(429, { 'retry-after': '3' });
      res.write('0123456789'.repeat(5));
      setTimeout(() => res.end('0123456789'.repeat(45)), 5);
    };
    const failed = await get();
    expect(failed.statusCode).toBe(429);
    expect(failed.headers['retry-after']).toBe('3');
    expect(await errorText(failed)).toBe('0123456789');
    sockets = 0;
    handler = (_req, res) => res.end('next');
    const next = await get();
    expect(next.whole.toString()).toBe('next');
    // One pool connection: the next call went on the same socket (a new one would be counted).
    expect(sockets).toBe(0);
  });

  it('gives a failed answer cut off mid-body with what arrived: its status is the failure', async () => {
    handler = (_req, res) => {
      res.writeHead(500, { 'content-length': '100' });
      res.write('broken');
      setTimeout(() => res.destroy(), 5);
    };
    const answer = await get();
    expect([answer.statusCode, answer.whole.toString()]).toEqual([500, 'broken']);
  });

  it('fails a 2xx answer cut off mid-body, and a call that never got a head', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 5);
    };
    await expect(get()).rejects.toThrow();
    handler = (req) => req.socket.destroy();
    await expect(get()).rejects.toThrow();
  });
});
