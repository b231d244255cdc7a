import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';

/** The default home page: what this gateway is and which sign-in methods it offers. */
export function SystemOverview() {
  const { t } = useTranslation();
  const status = useStatus();
  const started = status.start_time ? formatDateTime(status.start_time) : '—';
  const switches = [
    ['home.emailVerification', status.email_verification],
    ['home.githubOAuth', status.github_oauth],
    ['home.wechatLogin', status.wechat_login],
    ['home.turnstile', status.turnstile_check],
    ['home.telegramOAuth', status.telegram_oauth],
  ] as const;

  return (
    <Stack>
      <Title order={2}>{t('home.welcome', { name: status.system_name })}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder radius="md">
          <Title order={4} mb="sm">
            {t('home.systemInfo')}
          </Title>
          <Text>{t('home.name', { value: status.system_name })}</Text>
          <Text>{t('home.version', { value: status.version || '—' })}</Text>
          <Text>{t('home.startTime', { value: started })}</Text>
        </Card>
        <Card withBorder radius="md">
          <Title order={4} mb="sm">
            {t('home.systemConfig')}
          </Title>
          <Stack gap={6}>
            {switches.map(([key, enabled]) => (
              <Group key={key} justify="space-between">
                <Text>{t(key)}</Text>
                <Badge color={enabled ? 'green' : 'gray'} variant="light">
                  {enabled ? t('common.enabled') : t('common.disabled')}
                </Badge>
              </Group>
            ))}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
