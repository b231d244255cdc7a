import { isAdmin, isRoot } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';
import type { UserState } from './user.state';

export const USERNAME_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const DEFAULT_GROUP = 'default';

/** The one normal form used by the uniqueness guard: "Alice" and "alice" are the same name. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function assertValidUsername(username: string): void {
  if (username.trim() === '') throw new DomainError('user.username_required');
  if (username.length > USERNAME_MAX_LENGTH)
    throw new DomainError('user.username_too_long', { max: USERNAME_MAX_LENGTH });
  if (/\s/.test(username)) throw new DomainError('user.username_invalid');
}

export function assertValidDisplayName(displayName: string): void {
  if (displayName.length > DISPLAY_NAME_MAX_LENGTH)
    throw new DomainError('user.display_name_too_long', { max: DISPLAY_NAME_MAX_LENGTH });
}

/** Checked on the clear password before it is hashed (the decider only ever sees hashes). */
export function assertPasswordRules(password: string): void {
  if (password === '') throw new DomainError('user.password_required');
  if (password.length < PASSWORD_MIN_LENGTH) throw new DomainError('user.password_too_short');
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new DomainError('user.password_too_long', { max: PASSWORD_MAX_LENGTH });
}

export interface ActorRef {
  readonly id: number;
  readonly role: number;
}

export function assertExisting(state: UserState): void {
  if (!state.exists) throw new DomainError('user.not_found');
  if (state.deregistered) throw new DomainError('user.deregistered');
}

/** An administrator manages only users of a lower role; root manages everyone. */
export function assertMayManage(actor: ActorRef, target: UserState): void {
  if (isRoot(actor.role)) return;
  if (!isAdmin(actor.role) || target.role >= actor.role)
    throw new DomainError('user.forbidden_same_or_higher_role');
}
