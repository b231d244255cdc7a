import type { SignedInUser } from './signed-in-user';

/** What the authenticator reads of a stored user to judge a session or an access token. */
export interface SessionUserRecord extends SignedInUser {
  /** Set once the user deregistered. */
  readonly DeletedAt: string | null;
  /** Sessions issued before this instant (ms) are void. */
  readonly sessions_valid_after?: number;
  /** Sessions ended by a logout that have not expired yet. */
  readonly revoked_sessions?: readonly { readonly id: string; readonly issued_at: number }[];
}

/**
 * Where the authenticator finds users. Declared here and provided by the composition root (the
 * users read model), so that auth does not depend on the users feature.
 */
export interface SessionUsers {
  byId(id: number): Promise<SessionUserRecord | null>;
  byAccessTokenHash(hash: string): Promise<SessionUserRecord | null>;
}

export const SESSION_USERS = Symbol('SESSION_USERS');
