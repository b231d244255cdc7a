import type { UserDto } from '@tollgate/contracts';

/** The `users` read model: the API's UserDto plus what lookups need (never returned as is). */
export interface UserDocument extends UserDto {
  _id: string;
  username_lower: string;
  password_hash: string;
  /** Only a verified email may be used to sign in (another account could have typed it first). */
  email_verified: boolean;
  access_token_hash: string;
  /**
   * Sessions issued before this instant (ms) are void: a password change, reset, disable, demotion
   * or deregistration signs the user out everywhere.
   */
  sessions_valid_after: number;
  /** Registered, grants not all written yet: start-up recovery finishes it. */
  registration_pending: boolean;
  /** Sessions ended by logout that have not expired yet (bounded, oldest dropped first). */
  revoked_sessions: RevokedSession[];
  /** `$all` commit position of the last event applied (idempotent writes without transactions). */
  source_position: number;
}

export interface RevokedSession {
  id: string;
  issued_at: number;
}

export const USERS = 'users';

export function toUserDto(doc: UserDocument): UserDto {
  const {
    _id: _ignoredId,
    username_lower: _lower,
    password_hash: _hash,
    email_verified: _verified,
    registration_pending: _pending,
    access_token_hash: _token,
    sessions_valid_after: _validAfter,
    revoked_sessions: _revoked,
    source_position: _position,
    ...dto
  } = doc;
  return dto;
}
