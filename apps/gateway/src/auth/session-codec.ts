import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

export interface SessionClaims {
  readonly userId: number;
  /** Issue time in ms: sessions older than the user's last password change are void. */
  readonly issuedAt: number;
}

/** Stateless signed session cookie: `<userId>.<issuedAt>.<hmac>`; every process can verify it. */
export class SessionCodec {
  constructor(private readonly secret: string) {}

  encode(claims: SessionClaims): string {
    const body = `${claims.userId}.${claims.issuedAt}`;
    return `${body}.${this.sign(body)}`;
  }

  decode(value: string | undefined, nowMs: number): SessionClaims | null {
    if (!value) return null;
    const match = /^(\d+)\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(value);
    if (!match) return null;
    const body = `${match[1]}.${match[2]}`;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(match[3]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const claims = { userId: Number(match[1]), issuedAt: Number(match[2]) };
    if (nowMs - claims.issuedAt > SESSION_MAX_AGE_S * 1000) return null;
    return claims;
  }

  private sign(body: string): string {
    return createHmac('sha256', `session:${this.secret}`).update(body).digest('base64url');
  }
}
