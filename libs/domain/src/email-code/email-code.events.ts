import type { DomainEvent } from '../shared/decider';

/** `verify`: registration and email bind (both prove the mailbox); `reset`: password reset links. */
export type EmailCodePurpose = 'verify' | 'reset';

/**
 * The events of `mailcode-<purpose>-<keyed hash of the address>`. `codeHash` is a keyed HMAC of the
 * code or link token (the key never leaves the server); times are unix ms.
 */
export type EmailCodeIssued = DomainEvent<
  'EmailCodeIssued',
  { purpose: EmailCodePurpose; codeHash: string; issuedAt: number; expiresAt: number }
>;
/** The mail did not leave: the code is void and the address may ask again at once. */
export type EmailCodeWithdrawn = DomainEvent<'EmailCodeWithdrawn', { codeHash: string }>;
/** A wrong code was tried against the live one (the tried code is not recorded). */
export type EmailCodeGuessFailed = DomainEvent<'EmailCodeGuessFailed', { codeHash: string }>;
/** The code did its job (single use). */
export type EmailCodeConsumed = DomainEvent<'EmailCodeConsumed', { codeHash: string }>;

export type EmailCodeEvent =
  EmailCodeIssued | EmailCodeWithdrawn | EmailCodeGuessFailed | EmailCodeConsumed;
