/**
 * Who calls, as the guard resolved them from the session or the access token: what handlers decide
 * with. No storage field (password hash, token hash, session bookkeeping) travels with it; a handler
 * that needs more of the user reads the users read model itself.
 */
export interface SignedInUser {
  readonly id: number;
  readonly username: string;
  /** 1 ordinary, 10 admin, 100 root. */
  readonly role: number;
  readonly group: string;
  readonly status: number;
}

/** The fields of a SignedInUser, picked from a larger record (a read-model row). */
export function signedInUserOf(user: SignedInUser): SignedInUser {
  const { id, username, role, group, status } = user;
  return { id, username, role, group, status };
}
