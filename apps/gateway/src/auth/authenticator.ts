import { Inject, Injectable } from '@nestjs/common';
import type { ReadStore } from '@tollgate/read-store';
import { UserStatus } from '@tollgate/contracts';
import { APP_CONFIG, READ_STORE } from '../infrastructure/injection-tokens';
import { sha256Hex } from '../infrastructure/secret-box';
import type { AppConfig } from '../config/app-config';
import { USERS, type UserDocument } from '../projections/user.document';
import { ApiError } from '../shared/api-error';
import { SessionCodec, type SessionClaims } from './session-codec';

const UNAUTHORIZED = 401;

/** Not ended by a logout, nor by a password change, reset, disable, demotion or deregistration. */
function sessionStillValid(user: UserDocument, claims: SessionClaims): boolean {
  if (claims.issuedAt < (user.sessions_valid_after ?? 0)) return false;
  return !(user.revoked_sessions ?? []).some((s) => s.id === claims.sessionId);
}

/**
 * Resolves who calls: a session cookie or a system access token in Authorization, then the
 * New-Api-User header that must name the same user (the anchors' contract).
 */
@Injectable()
export class Authenticator {
  readonly sessions: SessionCodec;

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sessions = new SessionCodec(config.sessionSecret);
  }

  async authenticate(input: {
    sessionCookie?: string;
    authorization?: string;
    userHeader?: string;
    /** Socket handshakes: a valid session cookie alone identifies the user. */
    sessionOnly?: boolean;
  }): Promise<UserDocument> {
    let user = (await this.sessionOf(input.sessionCookie))?.user ?? null;
    if (!user && input.authorization && !input.sessionOnly) {
      const token = input.authorization.replace(/^Bearer\s+/i, '').trim();
      if (token) user = await this.users().findOne({ access_token_hash: sha256Hex(token) });
      if (!user) throw new ApiError('auth.access_token_invalid', {}, UNAUTHORIZED);
    }
    if (!user) throw new ApiError('auth.not_logged_in', {}, UNAUTHORIZED);
    if (input.sessionOnly) return this.assertActive(user);
    if (!input.userHeader) throw new ApiError('auth.user_header_missing', {}, UNAUTHORIZED);
    if (input.userHeader.trim() !== String(user.id))
      throw new ApiError('auth.user_header_mismatch', {}, UNAUTHORIZED);
    return this.assertActive(user);
  }

  /**
   * The claims of a session that still counts (signed, not expired, not ended by a logout or any
   * revocation, its user not deregistered), or null: a logout appends only for such a session.
   */
  async liveSession(sessionCookie: string | undefined): Promise<SessionClaims | null> {
    const session = await this.sessionOf(sessionCookie);
    return session && session.user.DeletedAt === null ? session.claims : null;
  }

  /** A signed, unexpired session cookie whose user exists and has not revoked it. */
  private async sessionOf(
    cookie: string | undefined,
  ): Promise<{ claims: SessionClaims; user: UserDocument } | null> {
    const claims = this.sessions.decode(cookie, Date.now());
    if (!claims) return null;
    const user = await this.users().get(String(claims.userId));
    return user && sessionStillValid(user, claims) ? { claims, user } : null;
  }

  private users() {
    return this.readStore.collection<UserDocument>(USERS);
  }

  private assertActive(user: UserDocument): UserDocument {
    if (user.DeletedAt !== null) throw new ApiError('auth.session_expired', {}, UNAUTHORIZED);
    if (user.status !== UserStatus.Enabled)
      throw new ApiError('auth.user_disabled', {}, UNAUTHORIZED);
    return user;
  }
}
