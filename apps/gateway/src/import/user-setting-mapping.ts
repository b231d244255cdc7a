import { isEmailAddress, WEBHOOK_URL_MAX_LENGTH, type NotifyType } from '@tollgate/domain';
import type { NotificationFacts } from './import-mapping';
import type { RowNotes } from './row-notes';

/** new-api's `setting` keys Tollgate keeps (dto.UserSetting, v0.6.x); every other key is dropped. */
const NOTIFICATION_KEYS: ReadonlySet<string> = new Set([
  'notify_type',
  'quota_warning_threshold',
  'webhook_url',
  'webhook_secret',
  'notification_email',
]);

/**
 * new-api's per-user `setting` JSON text as the notification settings the console saves, each
 * field validated as the console validates it (an invalid one is dropped, reported). new-api read
 * a threshold of 0 (or none) as its QuotaRemindThreshold, an empty notify type as email, and
 * truncated a fractional threshold: the same here. null when there is nothing to keep (no setting,
 * none of its keys, a deleted user).
 */
export function mapUserSetting(
  setting: string,
  deleted: boolean,
  notes: RowNotes,
): NotificationFacts | null {
  if (setting.trim() === '') return null;
  const object = settingObjectOf(setting, notes);
  if (object === null) return null;
  const keys = Object.keys(object);
  const unknown = keys.filter((k) => !NOTIFICATION_KEYS.has(k));
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 10).map((k) => k.slice(0, 60));
    notes.dropped(
      'setting',
      `keys Tollgate has no setting for: ${listed.join(', ')}${unknown.length > 10 ? ', …' : ''}`,
    );
  }
  if (!keys.some((k) => NOTIFICATION_KEYS.has(k))) return null;
  if (deleted) {
    notes.dropped('setting', 'the user is deleted: notification settings not imported');
    return null;
  }
  return notificationsOf(object, notes);
}

function settingObjectOf(setting: string, notes: RowNotes): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(setting);
  } catch {
    notes.dropped('setting', 'not valid JSON');
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    notes.dropped('setting', 'not a JSON object');
    return null;
  }
  return parsed as Record<string, unknown>;
}

/** The valid fields, in the order the console checks them; null when none is kept. */
function notificationsOf(
  object: Readonly<Record<string, unknown>>,
  notes: RowNotes,
): NotificationFacts | null {
  const stringOf = (key: string): string | null => {
    const value = object[key];
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value.trim();
    notes.dropped(`setting.${key}`, 'not a string');
    return null;
  };
  let webhookUrl = stringOf('webhook_url') ?? '';
  if (webhookUrl !== '' && !isHttpUrl(webhookUrl)) {
    notes.dropped(
      'setting.webhook_url',
      `not an http(s) URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`,
    );
    webhookUrl = '';
  }
  const webhookSecret = stringOf('webhook_secret') ?? '';
  let notificationEmail = stringOf('notification_email') ?? '';
  if (notificationEmail !== '' && !isEmailAddress(notificationEmail)) {
    notes.dropped('setting.notification_email', 'not an email address');
    notificationEmail = '';
  }
  const threshold = thresholdOf(object['quota_warning_threshold'], notes);
  const notifyType = notifyTypeOf(stringOf('notify_type'), webhookUrl, notes);
  const kept =
    webhookUrl !== '' ||
    webhookSecret !== '' ||
    notificationEmail !== '' ||
    threshold.kept ||
    notifyType.kept;
  if (!kept) return null;
  return {
    notifyType: notifyType.value,
    quotaWarningThreshold: threshold.value,
    webhookUrl,
    webhookSecret,
    notificationEmail,
  };
}

/** A whole non-negative number of quota units; 0 means the QuotaRemindThreshold option (null). */
function thresholdOf(
  threshold: unknown,
  notes: RowNotes,
): { readonly value: number | null; readonly kept: boolean } {
  if (threshold === undefined || threshold === null) return { value: null, kept: false };
  if (
    typeof threshold === 'number' &&
    Number.isFinite(threshold) &&
    threshold >= 0 &&
    threshold <= Number.MAX_SAFE_INTEGER
  ) {
    const whole = Math.trunc(threshold);
    return { value: whole === 0 ? null : whole, kept: true };
  }
  notes.dropped('setting.quota_warning_threshold', 'not a non-negative number');
  return { value: null, kept: false };
}

/** email or webhook (email when empty, unknown, or a webhook without a valid URL). */
function notifyTypeOf(
  type: string | null,
  webhookUrl: string,
  notes: RowNotes,
): { readonly value: NotifyType; readonly kept: boolean } {
  let value: NotifyType = 'email';
  let kept = false;
  if (type === 'webhook' || type === 'email') {
    value = type;
    kept = true;
  } else if (type !== null && type !== '')
    notes.dropped(
      'setting.notify_type',
      `${type.slice(0, 20)} is not email or webhook: email used`,
    );
  if (value === 'webhook' && webhookUrl === '') {
    notes.changed('setting.notify_type', 'webhook without a valid webhook URL: email used');
    value = 'email';
  }
  return { value, kept };
}

function isHttpUrl(value: string): boolean {
  if (value.length > WEBHOOK_URL_MAX_LENGTH || !/^https?:\/\//i.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
