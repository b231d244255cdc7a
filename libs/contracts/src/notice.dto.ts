/** One delivery attempt of a notice (webhook status, or 0 with the error). */
export interface NoticeAttemptDto {
  attempt: number;
  ok: boolean;
  status: number;
  error: string;
  time: number;
}

/**
 * One notice as its owner lists it (`GET /api/user/notices`): never a secret, never the webhook
 * URL. `facts` is what the notice says (balance and threshold, or the channel alerts).
 */
export interface NoticeDto {
  notice_id: string;
  kind: 'quota_warning' | 'channel_alert' | 'test';
  channel: 'email' | 'webhook';
  facts: unknown;
  raised_time: number;
  delivered: boolean;
  closed: boolean;
  attempts: NoticeAttemptDto[];
}
