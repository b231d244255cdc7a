import { OAUTH_STATE_TTL_MS, OAuthStateCodec } from './oauth-state';

describe('OAuthStateCodec', () => {
  const codec = new OAuthStateCodec('secret');
  const now = 1_700_000_000_000;

  it('accepts its own cookie with the matching state, provider and time', () => {
    const { claims, cookie } = codec.issue('github', 7, now);
    expect(claims.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(codec.verify(cookie, claims.state, 'github', now + 1000)).toEqual(claims);
  });

  it('refuses another state, another provider, an expired or tampered cookie', () => {
    const { claims, cookie } = codec.issue('oidc', 0, now, { nonce: 'n', verifier: 'v' });
    expect(codec.verify(cookie, 'other', 'oidc', now)).toBeNull();
    expect(codec.verify(cookie, claims.state, 'github', now)).toBeNull();
    expect(codec.verify(cookie, claims.state, 'oidc', now + OAUTH_STATE_TTL_MS)).toBeNull();
    expect(codec.verify(undefined, claims.state, 'oidc', now)).toBeNull();
    expect(codec.verify(cookie, '', 'oidc', now)).toBeNull();
    const [body, signature] = cookie.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...claims, userId: 1, expiresAt: now + 10 * OAUTH_STATE_TTL_MS }),
    ).toString('base64url');
    expect(codec.verify(`${forged}.${signature}`, claims.state, 'oidc', now)).toBeNull();
    expect(codec.verify(`${body}.${signature}x`, claims.state, 'oidc', now)).toBeNull();
    expect(new OAuthStateCodec('other').verify(cookie, claims.state, 'oidc', now)).toBeNull();
  });

  it('issues a different state every time', () => {
    const states = new Set(
      Array.from({ length: 50 }, () => codec.issue('github', 0, now).claims.state),
    );
    expect(states.size).toBe(50);
  });
});
