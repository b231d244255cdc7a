import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

/** Email, WeChat, GitHub and Telegram bindings; binding itself arrives with the auth integrations. */
export function BindingsCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const rows = [
    [t('setting.bindEmail'), user?.email],
    [t('setting.bindWechat'), user?.wechat_id],
    [t('setting.bindGithub'), user?.github_id],
    [t('setting.bindTelegram'), user?.telegram_id],
  ] as const;

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.bindingsTitle')}
      </Title>
      <Stack gap="xs">
        {rows.map(([label, value]) => (
          <Group key={label} justify="space-between" wrap="nowrap">
            <Text>{label}</Text>
            <Text c={value ? undefined : 'dimmed'} truncate>
              {value || t('setting.notBound')}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
