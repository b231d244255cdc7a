import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/**
 * `pwattempts-<hash of the key>`: password checks of one account (a login name, or a signed-in user
 * confirming their password). A check counts as failed from its start (`at`, unix ms), so parallel
 * guesses each take a slot; a success clears the count. The tried password is never recorded.
 */
export type PasswordAttemptFailed = DomainEvent<'PasswordAttemptFailed', { at: number }>;
export type PasswordAttemptsCleared = DomainEvent<'PasswordAttemptsCleared', { at: number }>;
export type PasswordAttemptEvent = PasswordAttemptFailed | PasswordAttemptsCleared;

/** Failure times kept at most: a limit above it counts this many (the limit's default is 10). */
export const MAX_TRACKED_ATTEMPTS = 1000;

export type PasswordAttemptCommand =
  | {
      readonly type: 'StartPasswordAttempt';
      /** Failures allowed within `windowMs` (greater than 0). */
      readonly max: number;
      readonly windowMs: number;
    }
  | { readonly type: 'ClearPasswordAttempts' };

/** Times of the failures since the last clear, oldest first. */
export interface PasswordAttemptState {
  readonly failures: readonly number[];
}

/** Failures within the window ending at `nowMs`. */
export function recentFailures(
  state: PasswordAttemptState,
  windowMs: number,
  nowMs: number,
): number {
  return state.failures.filter((at) => at > nowMs - windowMs).length;
}

/**
 * Decides from every process's attempts alike: appended with the stream's expected revision, so
 * the count holds summed over processes (a concurrent attempt folds the other's first).
 * `StartPasswordAttempt` is refused with `common.too_many_requests` once `max` failures fall in
 * the window (a sliding one: each failure drops out `windowMs` after it).
 */
export const passwordAttemptDecider: Decider<
  PasswordAttemptCommand,
  PasswordAttemptState,
  PasswordAttemptEvent
> & { readonly snapshotVersion: number } = {
  initialState: { failures: [] },
  snapshotVersion: 1,
  evolve(state, event) {
    if (event.type === 'PasswordAttemptsCleared') return { failures: [] };
    return { failures: [...state.failures, event.data.at].slice(-MAX_TRACKED_ATTEMPTS) };
  },
  decide(command, state, { now }) {
    const at = now.getTime();
    if (command.type === 'ClearPasswordAttempts')
      return state.failures.length > 0 ? [{ type: 'PasswordAttemptsCleared', data: { at } }] : [];
    if (recentFailures(state, command.windowMs, at) >= command.max)
      throw new DomainError('common.too_many_requests');
    return [{ type: 'PasswordAttemptFailed', data: { at } }];
  },
};
