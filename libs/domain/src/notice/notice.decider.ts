import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { NoticeChannel, NoticeEvent, NoticeFacts, NoticeKind } from './notice.events';

export interface RaiseNotice {
  readonly type: 'RaiseNotice';
  readonly noticeId: string;
  readonly userId: number;
  readonly kind: NoticeKind;
  readonly channel: NoticeChannel;
  readonly facts: NoticeFacts;
}

export interface RecordDeliveryAttempt {
  readonly type: 'RecordDeliveryAttempt';
  readonly attempt: number;
  readonly ok: boolean;
  readonly status: number;
  readonly error: string;
  readonly final: boolean;
}

export type NoticeCommand = RaiseNotice | RecordDeliveryAttempt;

export interface NoticeState {
  readonly exists: boolean;
  readonly noticeId: string;
  readonly userId: number;
  readonly channel: NoticeChannel;
  readonly attempts: number;
  /** Delivered or given up: no attempt is recorded after it. */
  readonly closed: boolean;
}

export const initialNoticeState: NoticeState = {
  exists: false,
  noticeId: '',
  userId: 0,
  channel: 'email',
  attempts: 0,
  closed: false,
};

/** Longest error text kept in an attempt. */
export const NOTICE_ERROR_MAX_LENGTH = 300;

/**
 * One notice per stream: raised once (raising it again changes nothing, so a replayed crossing is
 * never sent twice), then one event per delivery attempt until one is final.
 */
export const noticeDecider: Decider<NoticeCommand, NoticeState, NoticeEvent> = {
  initialState: initialNoticeState,
  evolve(state, event) {
    switch (event.type) {
      case 'NoticeRaised':
        return {
          ...state,
          exists: true,
          noticeId: event.data.noticeId,
          userId: event.data.userId,
          channel: event.data.channel,
        };
      case 'NoticeDeliveryAttempted':
        return { ...state, attempts: event.data.attempt, closed: event.data.final };
    }
  },
  decide(command, state, { now }) {
    switch (command.type) {
      case 'RaiseNotice': {
        if (state.exists) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'NoticeRaised', data: { ...data, raisedTime: now.getTime() } }];
      }
      case 'RecordDeliveryAttempt':
        if (!state.exists) throw new DomainError('common.not_found');
        if (state.closed || command.attempt <= state.attempts) return [];
        return [
          {
            type: 'NoticeDeliveryAttempted',
            data: {
              noticeId: state.noticeId,
              userId: state.userId,
              channel: state.channel,
              attempt: command.attempt,
              ok: command.ok,
              status: command.status,
              error: command.error.slice(0, NOTICE_ERROR_MAX_LENGTH),
              time: now.getTime(),
              final: command.final || command.ok,
            },
          },
        ];
    }
  },
};
