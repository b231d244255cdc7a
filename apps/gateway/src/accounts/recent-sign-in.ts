import type { SessionClaims } from '../auth/session-codec';

/** How long after signing in a password may be changed without the current one. */
export const PASSWORD_CHANGE_GRACE_MS = 10 * 60 * 1000;

/**
 * new-api's console asks for the new password only, right after sign-in: a session issued at most
 * ten minutes ago may change it without `original_password`. An access token (no session) never may.
 */
export function signedInRecently(session: SessionClaims | null, nowMs: number): boolean {
  return session !== null && nowMs - session.issuedAt <= PASSWORD_CHANGE_GRACE_MS;
}
