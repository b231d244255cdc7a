import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

export interface SessionClaims {
  readonly userId: number;
  /** Issue time in ms: sessions issued before the user's `sessions_valid_after` are void. */
  readonly issuedAt: number;
  /** Random id of this session, named by the UserSignedOut event that ends it. */
  readonly sessionId: string;
}

/**
 * Signed session cookie `<userId>.<issuedAt>.<sessionId>.<hmac>`: every process verifies it without
 * shared memory; revocation comes from the log (the user document's sessions_valid_after and
 * revoked_sessions, written by the users projection).
 */
export class SessionCodec {
  constructor(private readonly secret: string) {}

  /** Claims for a new session of this user. */
  static start(userId: number, issuedAt: number): SessionClaims {
    return { userId, issuedAt, sessionId: randomBytes(12).toString('base64url') };
  }

  encode(claims: SessionClaims): string {
    const body = `${claims.userId}.${claims.issuedAt}.${claims.sessionId}`;
    return `${body}.${this.sign(body)}`;
  }

  decode(value: string | undefined, nowMs: number): SessionClaims | null {
    if (!value || value.length > 200) return null;
    const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/.exec(value);
    if (!match) return null;
    const body = `${match[1]}.${match[2]}.${match[3]}`;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(match[4]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const claims = { userId: Number(match[1]), issuedAt: Number(match[2]), sessionId: match[3]! };
    if (nowMs - claims.issuedAt > SESSION_MAX_AGE_S * 1000) return null;
    return claims;
  }

  private sign(body: string): string {
    return createHmac('sha256', `session:${this.secret}`).update(body).digest('base64url');
  }
}
