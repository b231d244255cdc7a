import { generateKeyPairSync, verify } from 'node:crypto';
import type { VertexServiceAccount } from './vertex-key';
import {
  serviceAccountTokenFetcher,
  VERTEX_SCOPE,
  VertexTokenCache,
  VertexTokenError,
  type FetchedToken,
} from './vertex-token';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const ACCOUNT: VertexServiceAccount = {
  clientEmail: 'relay@p.iam.gserviceaccount.com',
  privateKey,
  projectId: 'p',
  tokenUri: 'http://127.0.0.1:9/token',
};

const json = (body: object, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const decode = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('serviceAccountTokenFetcher', () => {
  it("posts a signed jwt-bearer grant to the key's token_uri and reads the token", async () => {
    const calls: Array<{ url: string; body: string; type: string | null }> = [];
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      // As the wire sees it: fetch derives the form's content type from the body.
      const req = new Request(input, init);
      calls.push({ url: req.url, body: await req.text(), type: req.headers.get('content-type') });
      return json({ access_token: 'ya29.test', expires_in: 3600, token_type: 'Bearer' });
    }) as typeof fetch;
    const token = await serviceAccountTokenFetcher(fetchImpl)(ACCOUNT);
    expect(token.accessToken).toBe('ya29.test');
    expect(token.lifetimeMs).toBeGreaterThan(3_590_000);
    expect(token.lifetimeMs).toBeLessThanOrEqual(3_600_000);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(ACCOUNT.tokenUri);
    expect(calls[0]!.type).toMatch(/application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(calls[0]!.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [head = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
    expect(decode(head)).toMatchObject({ alg: 'RS256' });
    expect(decode(claims)).toMatchObject({ iss: ACCOUNT.clientEmail, scope: VERTEX_SCOPE });
    const signed = Buffer.from(`${head}.${claims}`);
    expect(verify('sha256', signed, publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
  });

  it('fails once, naming the account and endpoint but not the key', async () => {
    let count = 0;
    const fetchImpl = (() => {
      count += 1;
      return Promise.resolve(
        json({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }, 400),
      );
    }) as typeof fetch;
    const failure = serviceAccountTokenFetcher(fetchImpl)(ACCOUNT);
    await expect(failure).rejects.toThrow(VertexTokenError);
    await expect(failure).rejects.toThrow(/relay@p.iam.*127\.0\.0\.1:9\/token.*invalid_grant/);
    expect(count).toBe(1);
  });

  it('fails on an answer without a token', async () => {
    const fetchImpl = (() => Promise.resolve(json({ expires_in: 3600 }))) as typeof fetch;
    await expect(serviceAccountTokenFetcher(fetchImpl)(ACCOUNT)).rejects.toThrow(/no access_token/);
  });
});

describe('VertexTokenCache', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  function counting(lifetimeMs = 3_600_000) {
    const seen: string[] = [];
    const fetcher = (account: VertexServiceAccount): Promise<FetchedToken> => {
      seen.push(account.clientEmail);
      return Promise.resolve({ accessToken: `tok-${seen.length}`, lifetimeMs });
    };
    return { seen, cache: new VertexTokenCache(fetcher) };
  }

  it('reuses a token until five minutes before it expires', async () => {
    const { seen, cache } = counting();
    expect(await cache.accessToken(ACCOUNT, t0)).toBe('tok-1');
    expect(await cache.accessToken(ACCOUNT, at(54 * 60_000))).toBe('tok-1');
    expect(await cache.accessToken(ACCOUNT, at(55 * 60_000))).toBe('tok-2');
    expect(seen).toHaveLength(2);
  });

  it('keeps one token per client_email and refetches for a rotated key', async () => {
    const { seen, cache } = counting();
    const other = { ...ACCOUNT, clientEmail: 'other@p.iam.gserviceaccount.com' };
    expect(await cache.accessToken(ACCOUNT, t0)).toBe('tok-1');
    expect(await cache.accessToken(other, t0)).toBe('tok-2');
    expect(await cache.accessToken(ACCOUNT, t0)).toBe('tok-1');
    expect(await cache.accessToken({ ...ACCOUNT, privateKey: 'rotated' }, t0)).toBe('tok-3');
    expect(seen).toHaveLength(3);
  });

  it('shares one request among concurrent calls', async () => {
    const { seen, cache } = counting();
    const tokens = await Promise.all([1, 2, 3].map(() => cache.accessToken(ACCOUNT, t0)));
    expect(tokens).toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(seen).toHaveLength(1);
  });

  it('keeps half the life of a short token as margin, and never caches a failure', async () => {
    const { cache } = counting(60_000);
    expect(await cache.accessToken(ACCOUNT, t0)).toBe('tok-1');
    expect(await cache.accessToken(ACCOUNT, at(29_000))).toBe('tok-1');
    expect(await cache.accessToken(ACCOUNT, at(30_000))).toBe('tok-2');
    let fail = true;
    const flaky = new VertexTokenCache(() =>
      fail
        ? Promise.reject(new VertexTokenError('down'))
        : Promise.resolve({ accessToken: 'ok', lifetimeMs: 3_600_000 }),
    );
    await expect(flaky.accessToken(ACCOUNT, t0)).rejects.toThrow('down');
    fail = false;
    expect(await flaky.accessToken(ACCOUNT, t0)).toBe('ok');
  });
});
