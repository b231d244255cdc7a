import type { DomainEvent } from '../shared/decider';

/** What a notice is about: a balance below the threshold, channels switched by the system, a test. */
export type NoticeKind = 'quota_warning' | 'channel_alert' | 'test';
export type NoticeChannel = 'webhook' | 'email';

/** One channel the system disabled (to 3) or re-enabled (to 1). */
export interface ChannelAlertFact {
  readonly channelId: number;
  readonly channelName: string;
  /** The model of the failing call or test ('' when unknown). */
  readonly model: string;
  readonly from: number;
  readonly to: number;
  /** The error that caused it ('' for a re-enable). */
  readonly reason: string;
  /** Unix seconds. */
  readonly time: number;
}

export type NoticeFacts =
  | { readonly balance: number; readonly threshold: number }
  | { readonly alerts: readonly ChannelAlertFact[] }
  | Record<string, never>;

/**
 * A notice for one user: recorded before any delivery is tried, so a restart finds it again. The
 * stream id derives from what caused it (the crossing, the alert batch), so it is recorded once.
 */
export type NoticeRaised = DomainEvent<
  'NoticeRaised',
  {
    noticeId: string;
    userId: number;
    kind: NoticeKind;
    /** How it is to be delivered (the user's notify type when it was raised). */
    channel: NoticeChannel;
    facts: NoticeFacts;
    /** Unix ms. */
    raisedTime: number;
  }
>;

/** One delivery attempt and its outcome (HTTP status, or 0; the error text, never a secret). */
export type NoticeDeliveryAttempted = DomainEvent<
  'NoticeDeliveryAttempted',
  {
    noticeId: string;
    userId: number;
    channel: NoticeChannel;
    attempt: number;
    ok: boolean;
    status: number;
    error: string;
    /** Unix ms. */
    time: number;
    /** No further attempt will be made (delivered, or given up). */
    final: boolean;
  }
>;

export type NoticeEvent = NoticeRaised | NoticeDeliveryAttempted;

export const noticeStreamId = (noticeId: string) => `notice-${noticeId}`;
