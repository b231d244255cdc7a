/** A failed reply as the user reads it. */
export interface ReplyError {
  message: string;
  /** The account's balance is out: the wallet can fix it. */
  outOfQuota: boolean;
}

interface ErrorBody {
  error?: { message?: unknown; code?: unknown; type?: unknown } | string;
  message?: unknown;
}

const QUOTA_CODES = new Set(['insufficient_user_quota']);

/**
 * The relay's error body (`{"error":{"message":…,"code":…}}`, new-api's `{"message":…}`, or plain
 * text) as its message, marked when the user's balance is out.
 */
export function readReplyError(raw: string): ReplyError {
  let body: ErrorBody | undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object') body = parsed;
  } catch {
    body = undefined;
  }
  const inner = typeof body?.error === 'object' ? body.error : undefined;
  const message =
    (typeof inner?.message === 'string' && inner.message) ||
    (typeof body?.error === 'string' && body.error) ||
    (typeof body?.message === 'string' && body.message) ||
    raw.trim();
  const code = typeof inner?.code === 'string' ? inner.code : '';
  return { message, outOfQuota: QUOTA_CODES.has(code) || message.startsWith('用户额度不足') };
}
