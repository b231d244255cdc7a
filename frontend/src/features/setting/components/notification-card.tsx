import {
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Radio,
  Stack,
  Switch,
  TextInput,
  Title,
} from '@mantine/core';
import { isAdmin, type UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { parseNotifySetting } from '../api/notify.api';
import { useNotifyForm } from '../hooks/use-notify-form';
import { RecentNotices } from './recent-notices';

type NotifyForm = ReturnType<typeof useNotifyForm>;

/**
 * Low-balance warnings and (administrators) channel alerts: mail or a signed webhook
 * (`PUT /api/user/setting`), a test button, and the last notices with their delivery attempts.
 */
export function NotificationCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const form = useNotifyForm(user);
  const { fields, set, threshold, save, test } = form;

  return (
    <Card withBorder radius="md" data-testid="notification-card">
      <Title order={4} mb="md">
        {t('notify.title')}
      </Title>
      <Stack>
        <Radio.Group
          label={t('notify.type')}
          value={fields.notifyType}
          onChange={(value) => set.notifyType(value)}
        >
          <Group mt={4}>
            <Radio value="email" label={t('notify.email')} />
            <Radio value="webhook" label={t('notify.webhook')} />
          </Group>
        </Radio.Group>
        <NumberInput
          label={t('notify.threshold')}
          description={t('notify.thresholdHint')}
          value={threshold.input}
          onChange={threshold.change}
          min={0}
          prefix={threshold.prefix}
          decimalScale={threshold.decimals}
          allowNegative={false}
        />
        {fields.notifyType === 'webhook' ? (
          <WebhookFields form={form} user={user} />
        ) : (
          <TextInput
            label={t('notify.notificationEmail')}
            description={t('notify.notificationEmailHint')}
            placeholder={user?.email ?? ''}
            value={fields.email}
            onChange={(e) => set.email(e.currentTarget.value)}
          />
        )}
        {user && isAdmin(user.role) && (
          <Switch
            label={t('notify.acceptAdminAlerts')}
            checked={fields.alerts}
            onChange={(e) => set.alerts(e.currentTarget.checked)}
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
        <RecentNotices enabled={Boolean(user)} />
      </Stack>
    </Card>
  );
}

/** The webhook's address and its signing secret (write-only: blank keeps the saved one). */
function WebhookFields({ form, user }: { form: NotifyForm; user: UserDto | undefined }) {
  const { t } = useTranslation();
  const { fields, set } = form;
  const secretSet = parseNotifySetting(user?.setting).webhook_secret_set;
  return (
    <>
      <TextInput
        label={t('notify.webhookUrl')}
        placeholder="https://example.com/hooks/tollgate"
        value={fields.webhookUrl}
        onChange={(e) => set.webhookUrl(e.currentTarget.value)}
        maxLength={500}
      />
      <PasswordInput
        label={t('notify.webhookSecret')}
        description={t('notify.secretHint')}
        placeholder={secretSet ? t('notify.secretSet') : ''}
        value={fields.secret}
        onChange={(e) => set.secret(e.currentTarget.value)}
        autoComplete="new-password"
      />
    </>
  );
}
