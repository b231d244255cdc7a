import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedAgent } from '../shared/net/guarded-connect';
import { DEFAULT_RETRY, retryDelayMs } from './notice-delivery';
import { postWebhook, signBody, webhookAddressProblem } from './webhook';

describe('webhook signature', () => {
  it('is sha256=<hex HMAC-SHA256 of the exact body>', () => {
    const body = '{"type":"test","time":"2026-01-01T00:00:00.000Z"}';
    expect(signBody(body, 's3cret')).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`,
    );
    expect(signBody(`${body} `, 's3cret')).not.toBe(signBody(body, 's3cret'));
  });
});

describe('retry backoff', () => {
  it('doubles from 30 s and is capped at 15 min', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, DEFAULT_RETRY) / 1000)).toEqual([
      30, 60, 120, 240, 480, 900, 900, 900,
    ]);
    // Within the hour: 30+60+120+240+480+900 s = 30.5 min, so about 8 attempts at most.
  });
});

describe('webhook addresses', () => {
  const lookup = (addresses: string[]) => () =>
    Promise.resolve(addresses.map((address) => ({ address })));

  it('judges every address a name resolves to, unless private addresses are allowed', async () => {
    expect(
      await webhookAddressProblem('https://hooks.example/x', false, lookup(['93.184.216.34'])),
    ).toBe('');
    expect(
      await webhookAddressProblem(
        'https://hooks.example/x',
        false,
        lookup(['93.184.216.34', '127.0.0.1']),
      ),
    ).toBe('private');
    expect(await webhookAddressProblem('http://[::1]:8080/x', false, lookup([]))).toBe('private');
    expect(await webhookAddressProblem('http://127.0.0.1/x', true, lookup([]))).toBe('');
    expect(await webhookAddressProblem('ftp://example.com/x', true)).toBe('invalid');
    expect(await webhookAddressProblem('not a url', false)).toBe('invalid');
    const failing = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await webhookAddressProblem('https://nowhere.invalid/x', false, failing)).toBe(
      'unresolved',
    );
    expect(await webhookAddressProblem('https://empty.example/x', false, lookup([]))).toBe(
      'unresolved',
    );
  });

  it.each([
    'http://[::ffff:7f00:1]:8080/x',
    'http://[::7f00:1]/x',
    'http://[::a00:1]/x',
    'http://[64:ff9b::a00:1]/x',
    'http://[2002:7f00:1::]/x',
    'http://[2001:0:808:808::80ff:fffe]/x',
  ])('refuses %s (IPv4 wrapped in IPv6)', async (url) => {
    expect(await webhookAddressProblem(url, false, lookup([]))).toBe('private');
    expect(await webhookAddressProblem(url, true, lookup([]))).toBe('');
  });

  it('refuses a name answering an IPv4-mapped loopback', async () => {
    expect(
      await webhookAddressProblem('https://hooks.example/x', false, lookup(['::ffff:127.0.0.1'])),
    ).toBe('private');
  });
});

describe('webhook delivery', () => {
  let server: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('through the guarded agent reaches no loopback receiver, however it is written', async () => {
    const agent = guardedAgent({ lookup: () => Promise.resolve([{ address: '127.0.0.1' }]) });
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', 'hooks.example']) {
        const outcome = await postWebhook(`http://${host}:${port}/h`, '{}', 's', 5_000, agent);
        expect(outcome).toEqual({ ok: false, status: 0, error: 'ADDRESS_REFUSED' });
      }
    } finally {
      await agent.close();
    }
    expect(received).toBe(0);
    // Without the guard (private addresses allowed) the same call arrives.
    expect(await postWebhook(`http://127.0.0.1:${port}/h`, '{}', 's', 5_000)).toEqual({
      ok: true,
      status: 200,
      error: '',
    });
    expect(received).toBe(1);
  });
});
