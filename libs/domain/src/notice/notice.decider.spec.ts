import { FIXED_NOW, spec } from '@tollgate/testing';
import { noticeDecider, type RaiseNotice } from './notice.decider';
import type { NoticeEvent } from './notice.events';

const raise: RaiseNotice = {
  type: 'RaiseNotice',
  noticeId: 'quota-7-abc',
  userId: 7,
  kind: 'quota_warning',
  channel: 'webhook',
  facts: { balance: 900, threshold: 1000 },
};
const raised: NoticeEvent = {
  type: 'NoticeRaised',
  data: {
    noticeId: 'quota-7-abc',
    userId: 7,
    kind: 'quota_warning',
    channel: 'webhook',
    facts: { balance: 900, threshold: 1000 },
    raisedTime: FIXED_NOW.getTime(),
  },
};
const attempted = (attempt: number, ok: boolean, final = ok): NoticeEvent => ({
  type: 'NoticeDeliveryAttempted',
  data: {
    noticeId: 'quota-7-abc',
    userId: 7,
    channel: 'webhook',
    attempt,
    ok,
    status: ok ? 200 : 500,
    error: ok ? '' : 'HTTP 500',
    time: FIXED_NOW.getTime(),
    final,
  },
});

describe('noticeDecider', () => {
  it('raises a notice once', () => {
    spec(noticeDecider).given([]).when(raise).then([raised]);
  });

  it('raising the same notice again records nothing (a replayed crossing)', () => {
    spec(noticeDecider).given([raised]).when(raise).then([]);
  });

  it('records each attempt; a success is final', () => {
    spec(noticeDecider)
      .given([raised])
      .when({
        type: 'RecordDeliveryAttempt',
        attempt: 1,
        ok: false,
        status: 500,
        error: 'HTTP 500',
        final: false,
      })
      .then([attempted(1, false)]);
    spec(noticeDecider)
      .given([raised, attempted(1, false)])
      .when({
        type: 'RecordDeliveryAttempt',
        attempt: 2,
        ok: true,
        status: 200,
        error: '',
        final: false,
      })
      .then([attempted(2, true)]);
  });

  it('records nothing after a final attempt, nor an attempt twice', () => {
    spec(noticeDecider)
      .given([raised, attempted(1, true)])
      .when({
        type: 'RecordDeliveryAttempt',
        attempt: 2,
        ok: true,
        status: 200,
        error: '',
        final: false,
      })
      .then([]);
    spec(noticeDecider)
      .given([raised, attempted(1, false)])
      .when({
        type: 'RecordDeliveryAttempt',
        attempt: 1,
        ok: false,
        status: 500,
        error: 'x',
        final: false,
      })
      .then([]);
  });

  it('refuses an attempt on a notice that was never raised', () => {
    spec(noticeDecider)
      .given([])
      .when({
        type: 'RecordDeliveryAttempt',
        attempt: 1,
        ok: true,
        status: 200,
        error: '',
        final: false,
      })
      .thenRejects('common.not_found');
  });
});
