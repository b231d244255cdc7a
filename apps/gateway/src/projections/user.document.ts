import type { UserDto } from '@tollgate/contracts';

/** The `users` read model: the API's UserDto plus what lookups need (never returned as is). */
export interface UserDocument extends UserDto {
  _id: string;
  username_lower: string;
  password_hash: string;
  access_token_hash: string;
  /** Sessions issued before this instant (ms) are void: a password change signs everyone out. */
  password_changed_at: number;
  /** `$all` commit position of the last event applied (idempotent writes without transactions). */
  source_position: number;
}

export const USERS = 'users';

export function toUserDto(doc: UserDocument): UserDto {
  const {
    _id: _ignoredId,
    username_lower: _lower,
    password_hash: _hash,
    access_token_hash: _token,
    password_changed_at: _changed,
    source_position: _position,
    ...dto
  } = doc;
  return dto;
}
