import type { NotifyType, UserNotificationSettingsChanged } from '@tollgate/domain';

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

/** The settings a user has before saving any: mail to the bound address, the option's threshold. */
export const DEFAULT_NOTIFY_TYPE: NotifyType = 'email';

/** Spec 000 §9: `$` and two decimals in currency mode, otherwise quota units. */
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
