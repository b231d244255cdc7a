import { Card, Group, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import type { UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Stat } from '@/components/stat';
import { HistoryButton } from '@/features/history';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';

/** Who the user is and what is left: id, balance, history spend, request count. */
export function AccountCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  return (
    <Card withBorder radius="md" data-testid="account-card">
      <Group justify="space-between" mb="md">
        <Title order={4}>{t('setting.accountTitle')}</Title>
        {user && (
          <Group gap="sm">
            <Text c="dimmed" size="sm">
              {user.display_name || user.username} · @{user.username}
            </Text>
            <HistoryButton
              variant="button"
              label={t('history.selfButton')}
              subject={{ kind: 'user', id: 'self' }}
            />
          </Group>
        )}
      </Group>
      {user ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Stat label={t('setting.userId')} value={String(user.id)} testId="account-id" />
          <Stat
            label={t('setting.balance')}
            value={<QuotaBalance quota={user.quota} />}
            testId="account-balance"
          />
          <Stat
            label={t('setting.usedQuota')}
            value={formatQuota(user.used_quota)}
            testId="account-used"
          />
          <Stat
            label={t('setting.requestCount')}
            value={String(user.request_count)}
            testId="account-requests"
          />
        </SimpleGrid>
      ) : (
        <Skeleton h={56} />
      )}
    </Card>
  );
}
