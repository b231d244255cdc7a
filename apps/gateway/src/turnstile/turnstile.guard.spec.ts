import { createServer, type Server } from 'node:http';
import type { ExecutionContext } from '@nestjs/common';
import type { OptionsCache } from '../options/options.cache';
import { TurnstileGuard } from './turnstile.guard';
import { TurnstileVerifier } from './turnstile-verifier';

function optionsWith(values: Record<string, string>): OptionsCache {
  return {
    get: (key: string) => values[key] ?? '',
    bool: (key: string) => values[key] === 'true',
  } as unknown as OptionsCache;
}

function contextWith(query: Record<string, unknown>): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => ({ query, ip: '10.0.0.9' }) }),
  } as unknown as ExecutionContext;
}

describe('TurnstileGuard with a local siteverify', () => {
  let server: Server;
  let url = '';
  const seen: Array<Record<string, string>> = [];
  let answer: (form: Record<string, string>) => string = (form) =>
    JSON.stringify({ success: form['response'] === 'good' });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        seen.push(form);
        res.end(answer(form));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/siteverify`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const guard = (enabled: boolean, verifyUrl = url) => {
    const options = optionsWith({
      TurnstileCheckEnabled: String(enabled),
      TurnstileSecretKey: 'the-secret',
    });
    return new TurnstileGuard(
      options,
      new TurnstileVerifier(options, { turnstileVerifyUrl: verifyUrl }),
    );
  };

  it('lets everything through when the check is off, without calling siteverify', async () => {
    const before = seen.length;
    await expect(guard(false).canActivate(contextWith({}))).resolves.toBe(true);
    expect(seen).toHaveLength(before);
  });

  it('passes a token siteverify accepts, sending secret, token and client IP', async () => {
    await expect(guard(true).canActivate(contextWith({ turnstile: 'good' }))).resolves.toBe(true);
    expect(seen.at(-1)).toEqual({ secret: 'the-secret', response: 'good', remoteip: '10.0.0.9' });
  });

  it('refuses a missing, repeated, refused or oversized token', async () => {
    await expect(guard(true).canActivate(contextWith({}))).rejects.toMatchObject({
      code: 'turnstile.token_empty',
    });
    await expect(
      guard(true).canActivate(contextWith({ turnstile: ['good', 'good'] })),
    ).rejects.toMatchObject({ code: 'turnstile.token_empty' });
    await expect(guard(true).canActivate(contextWith({ turnstile: 'bad' }))).rejects.toMatchObject({
      code: 'turnstile.failed',
    });
    await expect(
      guard(true).canActivate(contextWith({ turnstile: 'x'.repeat(2049) })),
    ).rejects.toMatchObject({ code: 'turnstile.failed' });
  });

  it('answers "unavailable" when siteverify is down or not JSON', async () => {
    answer = () => 'not json';
    await expect(guard(true).canActivate(contextWith({ turnstile: 'good' }))).rejects.toMatchObject(
      { code: 'turnstile.unavailable' },
    );
    answer = (form) => JSON.stringify({ success: form['response'] === 'good' });
    await expect(
      guard(true, 'http://127.0.0.1:1/siteverify').canActivate(contextWith({ turnstile: 'good' })),
    ).rejects.toMatchObject({ code: 'turnstile.unavailable' });
  });
});
