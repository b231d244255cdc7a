import { createHmac } from 'node:crypto';
import { DEFAULT_RETRY, retryDelayMs } from './notice-delivery';
import { isPrivateAddress, signBody, webhookAddressProblem } from './webhook';

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

describe('private addresses', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it('judges every address a name resolves to, unless private addresses are allowed', async () => {
    const lookup = (addresses: string[]) => () =>
      Promise.resolve(addresses.map((address) => ({ address })));
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
  });
});
