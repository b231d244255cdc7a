import { Inject, Injectable } from '@nestjs/common';
import { UserStatus } from '@tollgate/contracts';
import { APP_CONFIG } from '../config/config.tokens';
import { sha256Hex } from '../infrastructure/secret-box';
import type { AppConfig } from '../config/app-config';
import { ApiError } from '../shared/api-error';
import { SessionCodec, type SessionClaims } from './session-codec';
import { SESSION_USERS, type SessionUserRecord, type SessionUsers } from './session-users';
import { signedInUserOf, type SignedInUser } from './signed-in-user';

const UNAUTHORIZED = 401;

/** Not ended by a logout, nor by a password change, reset, disable, demotion or deregistration. */
function sessionStillValid(user: SessionUserRecord, claims: SessionClaims): boolean {
  if (claims.issuedAt < (user.sessions_valid_after ?? 0)) return false;
  return !isLoggedOut(user, claims);
}

function isLoggedOut(user: SessionUserRecord, claims: SessionClaims): boolean {
  return (user.revoked_sessions ?? []).some((s) => s.id === claims.sessionId);
}

/**
 * A session of a user who is banned now (disabling voided it): new-api answers its requests with
 * HTTP 200 `用户已被封禁` rather than a 401, and the guard clears its cookie. A session its user
 * logged out of, or one of a deregistered user, is simply over.
 */
function isBannedSession(user: SessionUserRecord, claims: SessionClaims): boolean {
  return (
    user.status === UserStatus.Disabled && user.DeletedAt === null && !isLoggedOut(user, claims)
  );
}

/** The refusal of a banned user's session (HTTP 200); its cookie is to be cleared. */
export class BannedSessionError extends ApiError {
  constructor() {
    super('auth.user_disabled');
  }
}

/** Who calls, and the session they called with (null for a system access token). */
export interface Caller {
  readonly user: SignedInUser;
  readonly session: SessionClaims | null;
}

/**
 * Resolves who calls: a session cookie or a system access token in Authorization, then the
 * New-Api-User header that must name the same user (one-api's and new-api's contract). The answers
 * follow new-api's middleware: no credentials, a missing or wrong New-Api-User → 401; an access
 * token that is not valid, a banned user → HTTP 200 with success false.
 */
@Injectable()
export class Authenticator {
  readonly sessions: SessionCodec;

  constructor(
    @Inject(SESSION_USERS) private readonly users: SessionUsers,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sessions = new SessionCodec(config.sessionSecret);
  }

  async authenticate(input: AuthInput): Promise<SignedInUser> {
    return (await this.identify(input)).user;
  }

  async identify(input: AuthInput): Promise<Caller> {
    const signed = await this.signedSession(input.sessionCookie);
    const live = signed !== null && sessionStillValid(signed.user, signed.session);
    // A banned user's session still says who calls (for the header checks), then is refused.
    const banned = !live && signed !== null && isBannedSession(signed.user, signed.session);
    let found: StoredCaller | null = live || banned ? signed : null;
    if (!found && input.authorization && !input.sessionOnly) {
      const token = input.authorization.replace(/^Bearer\s+/i, '').trim();
      const user = token ? await this.users.byAccessTokenHash(sha256Hex(token)) : null;
      if (!user) throw new ApiError('auth.access_token_invalid');
      found = { user, session: null };
    }
    if (!found) throw new ApiError('auth.not_logged_in', {}, UNAUTHORIZED);
    const caller = found;
    if (!input.sessionOnly) {
      if (!input.userHeader) throw new ApiError('auth.user_header_missing', {}, UNAUTHORIZED);
      if (input.userHeader.trim() !== String(caller.user.id))
        throw new ApiError('auth.user_header_mismatch', {}, UNAUTHORIZED);
    }
    if (banned) throw new BannedSessionError();
    this.assertActive(caller.user);
    return { user: signedInUserOf(caller.user), session: caller.session };
  }

  /**
   * The claims of a session that still counts (signed, not expired, not ended by a logout or any
   * revocation, its user not deregistered), or null: a logout appends only for such a session.
   */
  async liveSession(sessionCookie: string | undefined): Promise<SessionClaims | null> {
    const signed = await this.signedSession(sessionCookie);
    return signed &&
      sessionStillValid(signed.user, signed.session) &&
      signed.user.DeletedAt === null
      ? signed.session
      : null;
  }

  /** A signed, unexpired session cookie whose user exists (it may have been ended since). */
  private async signedSession(
    cookie: string | undefined,
  ): Promise<{ session: SessionClaims; user: SessionUserRecord } | null> {
    const session = this.sessions.decode(cookie, Date.now());
    if (!session) return null;
    const user = await this.users.byId(session.userId);
    return user ? { session, user } : null;
  }

  private assertActive(user: SessionUserRecord): void {
    if (user.DeletedAt !== null) throw new ApiError('auth.session_expired', {}, UNAUTHORIZED);
    // An access token of a disabled user is voided with the disable; this covers the moment between.
    if (user.status !== UserStatus.Enabled) throw new ApiError('auth.user_disabled');
  }
}

/** A caller as stored, before only the SignedInUser fields are handed on. */
interface StoredCaller {
  readonly user: SessionUserRecord;
  readonly session: SessionClaims | null;
}

export interface AuthInput {
  sessionCookie?: string;
  authorization?: string;
  userHeader?: string;
  /** Socket handshakes: a valid session cookie alone identifies the user. */
  sessionOnly?: boolean;
}
