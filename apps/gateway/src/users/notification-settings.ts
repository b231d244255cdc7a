import type { UserNotificationSettingsChanged } from '@tollgate/domain';

type SettingsData = Omit<UserNotificationSettingsChanged['data'], 'userId'>;

/**
 * new-api's `setting` (the user's JSON text) as `GET /api/user/self` shows it: every field but the
 * webhook secret, which is only said to be set.
 */
export function notificationSettingText(data: SettingsData): string {
  return JSON.stringify({
    notify_type: data.notifyType,
    ...(data.quotaWarningThreshold === null
      ? {}
      : { quota_warning_threshold: data.quotaWarningThreshold }),
    webhook_url: data.webhookUrl,
    webhook_secret_set: data.sealedWebhookSecret !== null,
    notification_email: data.notificationEmail,
    accept_admin_alerts: data.acceptAdminAlerts,
  });
}

/** `$` and two decimals in currency mode, otherwise quota units. */
export function displayQuota(
  quota: number,
  displayInCurrency: boolean,
  quotaPerUnit: number,
): string {
  if (displayInCurrency) {
    const perUnit = quotaPerUnit > 0 ? quotaPerUnit : 500_000;
    return `$${(quota / perUnit).toFixed(2)}`;
  }
  return String(quota);
}

/**
 * A webhook URL for anyone but its owner: Slack and Discord put the token in the path, so only the
 * scheme and host are kept (`https://hooks.slack.com/…`); '' stays ''.
 */
export function maskWebhookUrl(url: string): string {
  if (url === '') return '';
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}/…`;
  } catch {
    return '…';
  }
}

/** The `setting` text as an administrator sees another user's: the webhook URL masked. */
export function maskedSettingText(setting: string): string {
  try {
    const parsed = JSON.parse(setting) as Record<string, unknown>;
    if (typeof parsed['webhook_url'] !== 'string') return setting;
    return JSON.stringify({ ...parsed, webhook_url: maskWebhookUrl(parsed['webhook_url']) });
  } catch {
    return setting;
  }
}
