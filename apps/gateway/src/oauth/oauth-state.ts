import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const OAUTH_STATE_COOKIE = 'oauth_state';
/** A sign-in started at the provider has this long to come back. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/**
 * An invitation code carried through a third-party registration (one-api's and new-api's codes are
 * short).
 */
const AFF_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** What a state stands for; travels signed in an httpOnly cookie, checked when the provider returns. */
export interface OAuthStateClaims {
  /** The random value sent to the provider and returned in the callback's `state`. */
  readonly state: string;
  /** The signed-in user who asked for it (0 = nobody): the callback must come from the same one. */
  readonly userId: number;
  /** ms */
  readonly expiresAt: number;
  /** `GET /api/oauth/state?aff=`: the inviter's code for a user the callback registers. */
  readonly aff?: string;
  /**
   * Tollgate's console started an OIDC sign-in on the server (GET /api/oauth/oidc/authorize): the
   * callback sends the PKCE verifier and wants the nonce back, both derived from the state.
   */
  readonly pkce?: true;
}

const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');

/**
 * The double-submit state of an OAuth sign-in, as new-api's console uses it for every provider:
 * `GET /api/oauth/state` hands out a random value and sets it, signed and with an expiry, in a
 * short-lived cookie (new-api keeps it in its session); the console puts the value into the
 * authorize URL it builds, and the callback must present both, matching. Stateless, so any gateway
 * process checks it; single use is on top (OAuthReplays, marks in the log). Tollgate's own OIDC
 * sign-in gets its state the same way, marked `pkce`.
 */
export class OAuthStateCodec {
  constructor(private readonly secret: string) {}

  issue(
    userId: number,
    nowMs: number,
    { aff = '', pkce = false }: { aff?: string; pkce?: boolean } = {},
  ): { claims: OAuthStateClaims; cookie: string } {
    const cleanAff = AFF_PATTERN.test(aff) ? aff : '';
    const claims: OAuthStateClaims = {
      state: randomToken(),
      userId,
      expiresAt: nowMs + OAUTH_STATE_TTL_MS,
      ...(cleanAff ? { aff: cleanAff } : {}),
      ...(pkce ? { pkce: true as const } : {}),
    };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { claims, cookie: `${body}.${this.sign(body)}` };
  }

  /** The claims when the cookie is ours, unexpired and carries this state. */
  verify(cookie: string | undefined, state: string, nowMs: number): OAuthStateClaims | null {
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
    if (typeof claims.state !== 'string' || !(claims.expiresAt > nowMs)) return null;
    const [a, b] = [Buffer.from(claims.state), Buffer.from(state)];
    return a.length === b.length && timingSafeEqual(a, b) ? claims : null;
  }

  private sign(body: string): string {
    // "v2": states signed before the provider-neutral format are void (they lived ten minutes).
    return createHmac('sha256', `oauth-state-v2:${this.secret}`).update(body).digest('base64url');
  }
}
