import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import {
  MAX_TRACKED_ATTEMPTS,
  passwordAttemptDecider,
  recentFailures,
  type PasswordAttemptEvent,
} from './password-attempt.decider';

const NOW = FIXED_NOW.getTime();
const WINDOW = 60_000;
const failed = (at: number): PasswordAttemptEvent => ({
  type: 'PasswordAttemptFailed',
  data: { at },
});
const cleared = (at: number): PasswordAttemptEvent => ({
  type: 'PasswordAttemptsCleared',
  data: { at },
});
const start = (max: number) => ({ type: 'StartPasswordAttempt', max, windowMs: WINDOW }) as const;

describe('passwordAttemptDecider', () => {
  it('counts an attempt as failed from its start', () => {
    spec(passwordAttemptDecider)
      .given([])
      .when(start(2))
      .then([failed(NOW)]);
  });

  it('refuses once `max` failures fall within the window', () => {
    spec(passwordAttemptDecider)
      .given([failed(NOW - 2), failed(NOW - 1)])
      .when(start(2))
      .thenRejects('common.too_many_requests');
  });

  it('a failure drops out of the count once the window has passed it', () => {
    spec(passwordAttemptDecider)
      .given([failed(NOW - WINDOW), failed(NOW - 1)])
      .when(start(2))
      .then([failed(NOW)]);
  });

  it('a success clears the count; clearing nothing appends nothing', () => {
    spec(passwordAttemptDecider)
      .given([failed(NOW - 2), failed(NOW - 1), cleared(NOW - 1)])
      .when(start(2))
      .then([failed(NOW)]);
    spec(passwordAttemptDecider)
      .given([failed(NOW - 1)])
      .when({ type: 'ClearPasswordAttempts' })
      .then([cleared(NOW)]);
    spec(passwordAttemptDecider).given([]).when({ type: 'ClearPasswordAttempts' }).then([]);
  });

  it('keeps a bounded number of failure times', () => {
    const many = Array.from({ length: MAX_TRACKED_ATTEMPTS + 5 }, (_, i) => failed(NOW - i));
    const state = fold(passwordAttemptDecider, many);
    expect(state.failures).toHaveLength(MAX_TRACKED_ATTEMPTS);
    expect(recentFailures(state, WINDOW, NOW)).toBe(MAX_TRACKED_ATTEMPTS);
  });
});
