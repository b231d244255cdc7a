import {
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Radio,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isAdmin, type UserDto } from '@tollgate/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { notifySuccess } from '@/lib/notify';
import { selfQueries } from '../api/self.api';
import {
  noticeQueries,
  notifyApi,
  parseNotifySetting,
  type NoticeDto,
  type NotifySettingRequest,
} from '../api/notify.api';

/** Quota units ↔ what the user types: dollars when currency display is on. */
function useThresholdUnit() {
  const { display_in_currency, quota_per_unit } = useStatus();
  const perUnit = display_in_currency ? quota_per_unit || 500_000 : 1;
  return {
    toDisplay: (quota: number) => quota / perUnit,
    toQuota: (value: number) => Math.round(value * perUnit),
    prefix: display_in_currency ? '$' : undefined,
    decimals: display_in_currency ? 2 : 0,
  };
}

/**
 * Low-balance warnings and (administrators) channel alerts: mail or a signed webhook
 * (`PUT /api/user/setting`), a test button, and the last notices with their delivery attempts.
 */
export function NotificationCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const unit = useThresholdUnit();
  const saved = parseNotifySetting(user?.setting);
  const [notifyType, setNotifyType] = useState(saved.notify_type);
  // The threshold in quota units (what is saved); the input shows it in the display unit.
  const [thresholdQuota, setThresholdQuota] = useState<number | null>(null);
  // What was last typed, kept while it still means `thresholdQuota` ("1." mid-typing).
  const [thresholdDraft, setThresholdDraft] = useState<number | string>('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [email, setEmail] = useState('');
  const [alerts, setAlerts] = useState(false);
  const settingText = user?.setting ?? '';

  useEffect(() => {
    const s = parseNotifySetting(settingText);
    setNotifyType(s.notify_type);
    setThresholdQuota(s.quota_warning_threshold ?? null);
    setThresholdDraft('');
    setWebhookUrl(s.webhook_url);
    setEmail(s.notification_email);
    setAlerts(s.accept_admin_alerts);
    // The form follows the saved text; the threshold stays in quota units whatever the unit.
  }, [settingText]);

  const draftMatches =
    thresholdDraft === ''
      ? thresholdQuota === null
      : thresholdQuota !== null && unit.toQuota(Number(thresholdDraft)) === thresholdQuota;
  const thresholdInput = draftMatches
    ? thresholdDraft
    : thresholdQuota === null
      ? ''
      : unit.toDisplay(thresholdQuota);
  const changeThreshold = (value: number | string) => {
    setThresholdDraft(value);
    setThresholdQuota(value === '' ? null : unit.toQuota(Number(value)));
  };

  const notices = useQuery({ ...noticeQueries.recent(), enabled: Boolean(user) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: selfQueries.all });

  const save = useMutation({
    mutationFn: () => {
      const body: NotifySettingRequest = {
        notify_type: notifyType,
        webhook_url: webhookUrl.trim(),
        notification_email: email.trim(),
        accept_admin_alerts: alerts,
      };
      if (thresholdQuota !== null) body.quota_warning_threshold = thresholdQuota;
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

  return (
    <Card withBorder radius="md" data-testid="notification-card">
      <Title order={4} mb="md">
        {t('notify.title')}
      </Title>
      <Stack>
        <Radio.Group
          label={t('notify.type')}
          value={notifyType}
          onChange={(value) => setNotifyType(value)}
        >
          <Group mt={4}>
            <Radio value="email" label={t('notify.email')} />
            <Radio value="webhook" label={t('notify.webhook')} />
          </Group>
        </Radio.Group>
        <NumberInput
          label={t('notify.threshold')}
          description={t('notify.thresholdHint')}
          value={thresholdInput}
          onChange={changeThreshold}
          min={0}
          prefix={unit.prefix}
          decimalScale={unit.decimals}
          allowNegative={false}
        />
        {notifyType === 'webhook' ? (
          <>
            <TextInput
              label={t('notify.webhookUrl')}
              placeholder="https://example.com/hooks/tollgate"
              value={webhookUrl}
              onChange={(e) => setWebhookUrl(e.currentTarget.value)}
              maxLength={500}
            />
            <PasswordInput
              label={t('notify.webhookSecret')}
              description={t('notify.secretHint')}
              placeholder={saved.webhook_secret_set ? t('notify.secretSet') : ''}
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              autoComplete="new-password"
            />
          </>
        ) : (
          <TextInput
            label={t('notify.notificationEmail')}
            description={t('notify.notificationEmailHint')}
            placeholder={user?.email ?? ''}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
        )}
        {user && isAdmin(user.role) && (
          <Switch
            label={t('notify.acceptAdminAlerts')}
            checked={alerts}
            onChange={(e) => setAlerts(e.currentTarget.checked)}
          />
        )}
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!user}>
            {t('notify.save')}
          </Button>
          <Button
            variant="light"
            onClick={() => test.mutate()}
            loading={test.isPending}
            disabled={!user}
          >
            {t('notify.test')}
          </Button>
        </Group>
        <Stack gap={4} data-testid="recent-notices">
          <Text size="sm" fw={600}>
            {t('notify.recent')}
          </Text>
          {(notices.data?.items ?? []).length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('notify.none')}
            </Text>
          ) : (
            notices.data!.items.map((notice) => (
              <NoticeRow key={notice.notice_id} notice={notice} />
            ))
          )}
        </Stack>
      </Stack>
    </Card>
  );
}

function NoticeRow({ notice }: { notice: NoticeDto }) {
  const { t } = useTranslation();
  const state = notice.delivered ? 'delivered' : notice.closed ? 'failed' : 'pending';
  const color = state === 'delivered' ? 'green' : state === 'failed' ? 'red' : 'yellow';
  return (
    <Stack gap={0}>
      <Group gap="xs">
        <Badge size="sm" variant="light">
          {t(`notify.kinds.${notice.kind}`)}
        </Badge>
        <Text size="sm">{new Date(notice.raised_time).toLocaleString()}</Text>
        <Badge size="sm" color={color}>
          {t(`notify.${state}`)}
        </Badge>
      </Group>
      {notice.attempts.map((a) => (
        <Text key={a.attempt} size="xs" c="dimmed">
          {t('notify.attempt', {
            n: a.attempt,
            outcome: a.ok ? `${a.status} OK` : a.error || String(a.status),
          })}
        </Text>
      ))}
    </Stack>
  );
}
