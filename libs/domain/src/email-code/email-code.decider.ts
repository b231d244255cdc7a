import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { EmailCodeEvent, EmailCodePurpose } from './email-code.events';

/** A new mail for the same address and purpose waits 30 seconds. */
export const RESEND_INTERVAL_MS = 30_000;
/** Wrong guesses before a code is void (a 6-digit code then holds against guessing). */
export const MAX_CODE_FAILURES = 5;

export type EmailCodeCommand =
  | {
      readonly type: 'IssueEmailCode';
      readonly purpose: EmailCodePurpose;
      readonly codeHash: string;
      readonly ttlMs: number;
    }
  | { readonly type: 'WithdrawEmailCode'; readonly codeHash: string }
  /** Compares without spending: a wrong code counts as a failed guess. */
  | { readonly type: 'CheckEmailCode'; readonly codeHash: string }
  /** Compares and spends the code when it is the live one; a wrong code counts as a failed guess. */
  | { readonly type: 'ConsumeEmailCode'; readonly codeHash: string };

export interface LiveEmailCode {
  readonly codeHash: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly failures: number;
}

/** The one code of this address and purpose that may still be used (null: none). */
export interface EmailCodeState {
  readonly live: LiveEmailCode | null;
}

export type EmailCodeVerdict = 'valid' | 'wrong' | 'none';

/**
 * How `codeHash` fares against the stream's state at `nowMs`. The hashes are keyed HMACs, so a
 * plain comparison leaks nothing a caller without the key could use.
 */
export function emailCodeVerdict(
  state: EmailCodeState,
  codeHash: string,
  nowMs: number,
): EmailCodeVerdict {
  const live = state.live;
  if (!live || nowMs >= live.expiresAt) return 'none';
  return live.codeHash === codeHash ? 'valid' : 'wrong';
}

function evolve(state: EmailCodeState, event: EmailCodeEvent): EmailCodeState {
  switch (event.type) {
    case 'EmailCodeIssued':
      return {
        live: {
          codeHash: event.data.codeHash,
          issuedAt: event.data.issuedAt,
          expiresAt: event.data.expiresAt,
          failures: 0,
        },
      };
    case 'EmailCodeGuessFailed': {
      if (!state.live || state.live.codeHash !== event.data.codeHash) return state;
      const failures = state.live.failures + 1;
      return { live: failures >= MAX_CODE_FAILURES ? null : { ...state.live, failures } };
    }
    case 'EmailCodeWithdrawn':
    case 'EmailCodeConsumed':
      return state.live?.codeHash === event.data.codeHash ? { live: null } : state;
  }
}

/**
 * Mailed codes and reset-link tokens of one address and purpose, shared by every process through
 * the log: appended with the stream's expected revision, so one code is consumed once even when two
 * processes try at the same moment (the loser folds the consumption and finds nothing live).
 */
export const emailCodeDecider: Decider<EmailCodeCommand, EmailCodeState, EmailCodeEvent> & {
  readonly snapshotVersion: number;
} = {
  initialState: { live: null },
  snapshotVersion: 1,
  evolve,
  decide(command, state, { now }) {
    const nowMs = now.getTime();
    switch (command.type) {
      case 'IssueEmailCode': {
        const live = state.live;
        if (live && nowMs < live.expiresAt && nowMs - live.issuedAt < RESEND_INTERVAL_MS)
          throw new DomainError('mail.resend_too_soon', {
            seconds: Math.ceil((RESEND_INTERVAL_MS - (nowMs - live.issuedAt)) / 1000),
          });
        return [
          {
            type: 'EmailCodeIssued',
            data: {
              purpose: command.purpose,
              codeHash: command.codeHash,
              issuedAt: nowMs,
              expiresAt: nowMs + command.ttlMs,
            },
          },
        ];
      }
      case 'WithdrawEmailCode':
        return state.live?.codeHash === command.codeHash
          ? [{ type: 'EmailCodeWithdrawn', data: { codeHash: command.codeHash } }]
          : [];
      case 'CheckEmailCode':
      case 'ConsumeEmailCode': {
        const verdict = emailCodeVerdict(state, command.codeHash, nowMs);
        const live = state.live;
        if (verdict === 'wrong' && live)
          return [{ type: 'EmailCodeGuessFailed', data: { codeHash: live.codeHash } }];
        if (verdict === 'valid' && command.type === 'ConsumeEmailCode')
          return [{ type: 'EmailCodeConsumed', data: { codeHash: command.codeHash } }];
        return [];
      }
    }
  },
};
