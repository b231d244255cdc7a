import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import {
  emailCodeDecider,
  emailCodeVerdict,
  MAX_CODE_FAILURES,
  RESEND_INTERVAL_MS,
} from './email-code.decider';
import type { EmailCodeEvent } from './email-code.events';

const NOW = FIXED_NOW.getTime();
const TTL = 600_000;

const issued = (codeHash: string, at = NOW): EmailCodeEvent => ({
  type: 'EmailCodeIssued',
  data: { purpose: 'verify', codeHash, issuedAt: at, expiresAt: at + TTL },
});
const failed = (codeHash: string): EmailCodeEvent => ({
  type: 'EmailCodeGuessFailed',
  data: { codeHash },
});
const consumed = (codeHash: string): EmailCodeEvent => ({
  type: 'EmailCodeConsumed',
  data: { codeHash },
});
const issue = (codeHash: string) =>
  ({ type: 'IssueEmailCode', purpose: 'verify', codeHash, ttlMs: TTL }) as const;
const consume = (codeHash: string) => ({ type: 'ConsumeEmailCode', codeHash }) as const;
const check = (codeHash: string) => ({ type: 'CheckEmailCode', codeHash }) as const;
const at = (ms: number) => ({ now: new Date(ms) });

describe('emailCodeDecider', () => {
  it('issues a code with its expiry', () => {
    spec(emailCodeDecider)
      .given([])
      .when(issue('h1'))
      .then([issued('h1')]);
  });

  it('refuses a new code within 30 seconds, saying how long to wait; later it replaces the old', () => {
    spec(emailCodeDecider, at(NOW + 10_000))
      .given([issued('h1')])
      .when(issue('h2'))
      .thenRejects('mail.resend_too_soon', { seconds: 20 });
    spec(emailCodeDecider, at(NOW + RESEND_INTERVAL_MS))
      .given([issued('h1')])
      .when(issue('h2'))
      .then([issued('h2', NOW + RESEND_INTERVAL_MS)]);
    const state = fold(emailCodeDecider, [issued('h1'), issued('h2', NOW + RESEND_INTERVAL_MS)]);
    expect(emailCodeVerdict(state, 'h1', NOW + RESEND_INTERVAL_MS)).toBe('wrong');
  });

  it('a withdrawn or consumed code holds back no new one', () => {
    spec(emailCodeDecider)
      .given([issued('h1'), { type: 'EmailCodeWithdrawn', data: { codeHash: 'h1' } }])
      .when(issue('h2'))
      .then([issued('h2')]);
    spec(emailCodeDecider)
      .given([issued('h1'), consumed('h1')])
      .when(issue('h2'))
      .then([issued('h2')]);
  });

  it('withdraws only the code it issued, not a newer one', () => {
    spec(emailCodeDecider)
      .given([issued('h2')])
      .when({ type: 'WithdrawEmailCode', codeHash: 'h1' })
      .then([]);
  });

  it('consumes the live code once', () => {
    spec(emailCodeDecider)
      .given([issued('h1')])
      .when(consume('h1'))
      .then([consumed('h1')]);
    spec(emailCodeDecider)
      .given([issued('h1'), consumed('h1')])
      .when(consume('h1'))
      .then([]);
  });

  it('a check spends nothing; a wrong code counts as a failed guess against the live one', () => {
    spec(emailCodeDecider)
      .given([issued('h1')])
      .when(check('h1'))
      .then([]);
    spec(emailCodeDecider)
      .given([issued('h1')])
      .when(check('hx'))
      .then([failed('h1')]);
    spec(emailCodeDecider)
      .given([issued('h1')])
      .when(consume('hx'))
      .then([failed('h1')]);
  });

  it('the fifth wrong guess voids the code', () => {
    const guesses = Array.from({ length: MAX_CODE_FAILURES - 1 }, () => failed('h1'));
    expect(emailCodeVerdict(fold(emailCodeDecider, [issued('h1'), ...guesses]), 'h1', NOW)).toBe(
      'valid',
    );
    const voided = fold(emailCodeDecider, [issued('h1'), ...guesses, failed('h1')]);
    expect(voided.live).toBeNull();
    spec(emailCodeDecider)
      .given([issued('h1'), ...guesses, failed('h1')])
      .when(consume('h1'))
      .then([]);
  });

  it('an expired code is neither consumed nor counted', () => {
    spec(emailCodeDecider, at(NOW + TTL - 1))
      .given([issued('h1')])
      .when(consume('h1'))
      .then([consumed('h1')]);
    spec(emailCodeDecider, at(NOW + TTL))
      .given([issued('h1')])
      .when(consume('h1'))
      .then([]);
    spec(emailCodeDecider, at(NOW + TTL))
      .given([issued('h1')])
      .when(check('hx'))
      .then([]);
  });
});
