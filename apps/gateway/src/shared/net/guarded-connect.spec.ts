import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import {
  AddressRefusedError,
  AddressUnresolvedError,
  checkedAddress,
  guardedAgent,
  type AddressLookup,
} from './guarded-connect';

/** A resolver answering from a table, as DNS would (a name it does not know fails). */
function tableLookup(table: Record<string, string[]>): AddressLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (host: string) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses)
      return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address })));
  };
  return Object.assign(lookup, { calls });
}

describe('checkedAddress: the address policy after DNS', () => {
  const lookup = tableLookup({
    'cdn.example': ['93.184.216.34'],
    'v6.example': ['2606:4700:4700::1111', '93.184.216.34'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'rebind.example': ['10.0.0.7'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'nat64.example': ['64:ff9b::a9fe:a9fe'],
    'sixtofour.example': ['2002:c0a8:101::1'],
    'teredo.example': ['2001:0:808:808:0:0:80ff:fffe'],
    'metadata.example': ['169.254.169.254'],
    'empty.example': [],
  });

  it.each([
    ['cdn.example', '93.184.216.34'],
    ['v6.example', '2606:4700:4700::1111'],
    ['93.184.216.34', '93.184.216.34'],
    ['[2606:4700:4700::1111]', '2606:4700:4700::1111'],
  ])('%s connects to %s', async (host, address) => {
    await expect(checkedAddress(host, { lookup })).resolves.toBe(address);
  });

  it.each([
    'mixed.example',
    'rebind.example',
    'mapped.example',
    'nat64.example',
    'sixtofour.example',
    'teredo.example',
    'metadata.example',
    '127.0.0.1',
    '[::1]',
    '[::ffff:7f00:1]',
    '[2002:7f00:1::]',
  ])('%s is refused', async (host) => {
    await expect(checkedAddress(host, { lookup })).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it('does not look literal addresses up', async () => {
    lookup.calls.length = 0;
    await checkedAddress('93.184.216.34', { lookup });
    await checkedAddress('[::1]', { lookup }).catch(() => undefined);
    expect(lookup.calls).toEqual([]);
  });

  it('a name without addresses, or unknown, does not resolve', async () => {
    await expect(checkedAddress('empty.example', { lookup })).rejects.toBeInstanceOf(
      AddressUnresolvedError,
    );
    await expect(checkedAddress('nowhere.example', { lookup })).rejects.toThrow('ENOTFOUND');
  });

  it('judges what the system resolver answers for localhost', async () => {
    await expect(checkedAddress('localhost')).rejects.toBeInstanceOf(AddressRefusedError);
  });
});

describe('guardedAgent: the policy on the address connected to', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ host: string | undefined; url: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ host: req.headers.host, url: req.url });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('inside');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  it('never connects to a loopback server, by literal or by a name resolving to it', async () => {
    const lookup = tableLookup({ 'images.example': ['127.0.0.1'] });
    const agent = guardedAgent({ lookup });
    try {
      for (const origin of [
        `http://127.0.0.1:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://images.example:${port}`,
      ])
        await expect(request(`${origin}/x`, { dispatcher: agent })).rejects.toMatchObject({
          code: 'ADDRESS_REFUSED',
        });
    } finally {
      await agent.close();
    }
    expect(seen).toEqual([]);
  });

  it('connects to the checked address and keeps the URL host; follows no redirect', async () => {
    // The policy is the test's here: loopback stands in for a public address.
    const lookup = tableLookup({ 'images.example': ['127.0.0.1'] });
    const agent = guardedAgent({ lookup, allowed: (address) => address === '127.0.0.1' });
    try {
      const ok = await request(`http://images.example:${port}/cat.png`, { dispatcher: agent });
      expect(ok.statusCode).toBe(200);
      expect(await ok.body.text()).toBe('inside');
      const moved = await request(`http://images.example:${port}/redirect`, {
        dispatcher: agent,
      });
      await moved.body.dump();
      expect(moved.statusCode).toBe(302);
    } finally {
      await agent.close();
    }
    expect(seen).toEqual([
      { host: `images.example:${port}`, url: '/cat.png' },
      { host: `images.example:${port}`, url: '/redirect' },
    ]);
    // One lookup per connection, made by the connector itself.
    expect(lookup.calls.length).toBeGreaterThan(0);
    expect(new Set(lookup.calls)).toEqual(new Set(['images.example']));
  });
});
