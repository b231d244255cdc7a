import { OAUTH_STATE_TTL_MS, OAuthStateCodec } from './oauth-state';

describe('OAuthStateCodec', () => {
  const codec = new OAuthStateCodec('secret');
  const now = 1_700_000_000_000;

  it('accepts its own cookie with the matching state before it expires', () => {
    const { claims, cookie } = codec.issue(7, now);
    expect(claims.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(codec.verify(cookie, claims.state, now + 1000)).toEqual(claims);
  });

  it('carries a well-formed invitation code, and drops a malformed one', () => {
    expect(codec.issue(0, now, { aff: 'AbC1' }).claims.aff).toBe('AbC1');
    expect(codec.issue(0, now, { aff: 'x'.repeat(33) }).claims.aff).toBeUndefined();
    expect(codec.issue(0, now, { aff: 'a b' }).claims.aff).toBeUndefined();
  });

  it("marks the states of Tollgate's own OIDC flow, and the mark cannot be added or dropped", () => {
    const own = codec.issue(0, now, { pkce: true });
    expect(codec.verify(own.cookie, own.claims.state, now)?.pkce).toBe(true);
    const plain = codec.issue(0, now);
    expect(codec.verify(plain.cookie, plain.claims.state, now)?.pkce).toBeUndefined();
    for (const [{ claims, cookie }, changed] of [
      [own, { ...own.claims, pkce: undefined }],
      [plain, { ...plain.claims, pkce: true }],
    ] as const) {
      const body = Buffer.from(JSON.stringify(changed)).toString('base64url');
      expect(codec.verify(`${body}.${cookie.split('.')[1]}`, claims.state, now)).toBeNull();
    }
  });

  it('refuses another state, an expired, tampered or foreign cookie', () => {
    const { claims, cookie } = codec.issue(0, now);
    expect(codec.verify(cookie, 'other', now)).toBeNull();
    expect(codec.verify(cookie, claims.state, now + OAUTH_STATE_TTL_MS)).toBeNull();
    expect(codec.verify(undefined, claims.state, now)).toBeNull();
    expect(codec.verify(cookie, '', now)).toBeNull();
    const [body, signature] = cookie.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...claims, userId: 1, expiresAt: now + 10 * OAUTH_STATE_TTL_MS }),
    ).toString('base64url');
    expect(codec.verify(`${forged}.${signature}`, claims.state, now)).toBeNull();
    expect(codec.verify(`${body}.${signature}x`, claims.state, now)).toBeNull();
    expect(new OAuthStateCodec('other').verify(cookie, claims.state, now)).toBeNull();
  });

  it('issues a different state every time', () => {
    const states = new Set(Array.from({ length: 50 }, () => codec.issue(0, now).claims.state));
    expect(states.size).toBe(50);
  });
});
