import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const OAUTH_STATE_COOKIE = 'oauth_state';
/** A sign-in started at the provider has this long to come back. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export type StateProvider = 'github' | 'oidc';

/** What a state stands for; travels signed in an httpOnly cookie, checked when the provider returns. */
export interface OAuthStateClaims {
  /** The random value sent to the provider and returned in the callback's `state`. */
  readonly state: string;
  readonly provider: StateProvider;
  /** The signed-in user who asked for it (0 = nobody): the callback must come from the same one. */
  readonly userId: number;
  /** ms */
  readonly expiresAt: number;
  /** OpenID Connect: the id_token must carry it. */
  readonly nonce?: string;
  /** OpenID Connect: the PKCE code verifier (the provider saw only its S256 challenge). */
  readonly verifier?: string;
  /** OpenID Connect: the redirect_uri of the authorization request, repeated in the exchange. */
  readonly redirectUri?: string;
}

const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');

/**
 * The double-submit state of an OAuth sign-in: `GET /api/oauth/state` hands out a random value and
 * sets it, signed and with an expiry, in a short-lived cookie; the callback must present both, and
 * they must match. Stateless, so any gateway process checks it; single use is on top (OAuthReplays).
 */
export class OAuthStateCodec {
  constructor(private readonly secret: string) {}

  issue(
    provider: StateProvider,
    userId: number,
    nowMs: number,
    extras: Pick<OAuthStateClaims, 'nonce' | 'verifier' | 'redirectUri'> = {},
  ): { claims: OAuthStateClaims; cookie: string } {
    const claims: OAuthStateClaims = {
      state: randomToken(),
      provider,
      userId,
      expiresAt: nowMs + OAUTH_STATE_TTL_MS,
      ...extras,
    };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { claims, cookie: `${body}.${this.sign(body)}` };
  }

  /** The claims when the cookie is ours, unexpired, for this provider and carries this state. */
  verify(
    cookie: string | undefined,
    state: string,
    provider: StateProvider,
    nowMs: number,
  ): OAuthStateClaims | null {
    if (!cookie || cookie.length > 4096 || !state || state.length > 128) return null;
    const dot = cookie.lastIndexOf('.');
    if (dot <= 0) return null;
    const body = cookie.slice(0, dot);
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(cookie.slice(dot + 1));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let claims: OAuthStateClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OAuthStateClaims;
    } catch {
      return null;
    }
    if (claims.provider !== provider || !(claims.expiresAt > nowMs)) return null;
    const [a, b] = [Buffer.from(claims.state), Buffer.from(state)];
    return a.length === b.length && timingSafeEqual(a, b) ? claims : null;
  }

  private sign(body: string): string {
    return createHmac('sha256', `oauth-state:${this.secret}`).update(body).digest('base64url');
  }
}

/** A fresh random value for nonces and PKCE verifiers. */
export function oauthRandom(): string {
  return randomToken(32);
}
