import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '@tollgate/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { notifyApi, parseNotifySetting, type NotifySettingRequest } from '../api/notify.api';
import { selfQueries } from '../api/self.api';
import { useThresholdInput } from './use-threshold-input';

/**
 * The notification settings as typed, following the user's saved `setting` text, with the save
 * (`PUT /api/user/setting`; the secret only when typed) and the test send. Both refresh the user.
 */
export function useNotifyForm(user: UserDto | undefined) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const threshold = useThresholdInput();
  const [notifyType, setNotifyType] = useState(parseNotifySetting(user?.setting).notify_type);
  const [webhookUrl, setWebhookUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [email, setEmail] = useState('');
  const [alerts, setAlerts] = useState(false);
  const settingText = user?.setting ?? '';

  useEffect(() => {
    const s = parseNotifySetting(settingText);
    setNotifyType(s.notify_type);
    threshold.reset(s.quota_warning_threshold ?? null);
    setWebhookUrl(s.webhook_url);
    setEmail(s.notification_email);
    setAlerts(s.accept_admin_alerts);
    // The form follows the saved text only (`reset` is a new function each render).
  }, [settingText]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: selfQueries.all });
  const save = useMutation({
    mutationFn: () => {
      const body: NotifySettingRequest = {
        notify_type: notifyType,
        webhook_url: webhookUrl.trim(),
        notification_email: email.trim(),
        accept_admin_alerts: alerts,
      };
      if (threshold.quota !== null) body.quota_warning_threshold = threshold.quota;
      if (secret !== '') body.webhook_secret = secret;
      return notifyApi.save(body);
    },
    onSuccess: () => {
      setSecret('');
      notifySuccess(t('notify.saved'));
      return refresh();
    },
  });
  const test = useMutation({
    mutationFn: notifyApi.test,
    onSuccess: () => {
      notifySuccess(t('notify.testSent'));
      return refresh();
    },
    onError: () => refresh(),
  });

  return {
    fields: { notifyType, webhookUrl, secret, email, alerts },
    set: {
      notifyType: setNotifyType,
      webhookUrl: setWebhookUrl,
      secret: setSecret,
      email: setEmail,
      alerts: setAlerts,
    },
    threshold,
    save,
    test,
  };
}
