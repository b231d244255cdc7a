import { isAdmin, isRoot } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';
import type { UserState } from './user.state';

export const USERNAME_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const DEFAULT_GROUP = 'default';
/** Longest third-party id accepted (OpenID Connect allows subjects of up to 255 ASCII characters). */
export const EXTERNAL_ID_MAX_LENGTH = 255;

/**
 * Usernames are identities, so they keep to a set nobody can fake: ASCII letters, digits, `_ . -`
 * (no `@`, so a name never looks like someone's email). Lookalikes from other scripts, invisible and
 * direction-override characters are refused rather than stored.
 */
const USERNAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;

/**
 * Display names may use any script, but no control, format (zero-width, bidirectional overrides),
 * separator-line, private-use or unassigned characters, and no lone surrogates.
 */
const DISPLAY_NAME_FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/** NFKC folds compatibility forms: fullwidth "Ｒoot" is "Root", and then a duplicate of root. */
export function canonicalUsername(username: string): string {
  return username.normalize('NFKC').trim();
}

export function canonicalDisplayName(displayName: string): string {
  return displayName.normalize('NFKC').trim();
}

/** The one normal form used by the uniqueness guard: "Alice", "alice" and "Ａｌｉｃｅ" are one name. */
export function normalizeUsername(username: string): string {
  return canonicalUsername(username).toLowerCase();
}

/** Checked on the canonical form (canonicalUsername). */
export function assertValidUsername(username: string): void {
  if (username.trim() === '') throw new DomainError('user.username_required');
  if (username.length > USERNAME_MAX_LENGTH)
    throw new DomainError('user.username_too_long', { max: USERNAME_MAX_LENGTH });
  if (!USERNAME_CHARACTERS.test(username)) throw new DomainError('user.username_invalid');
}

/** Checked on the canonical form (canonicalDisplayName). */
export function assertValidDisplayName(displayName: string): void {
  if (displayName.length > DISPLAY_NAME_MAX_LENGTH)
    throw new DomainError('user.display_name_too_long', { max: DISPLAY_NAME_MAX_LENGTH });
  if (DISPLAY_NAME_FORBIDDEN.test(displayName)) throw new DomainError('user.display_name_invalid');
}

/** Checked on the clear password before it is hashed (the decider only ever sees hashes). */
export function assertPasswordRules(password: string): void {
  if (password === '') throw new DomainError('user.password_required');
  if (password.length < PASSWORD_MIN_LENGTH) throw new DomainError('user.password_too_short');
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new DomainError('user.password_too_long', { max: PASSWORD_MAX_LENGTH });
}

export const EMAIL_MAX_LENGTH = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One `@`, a dot in the domain, no spaces, at most 254 characters (RFC 5321's path limit). */
export function isEmailAddress(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

/** The form emails are compared, claimed and stored in once verified: trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
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
