import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import type { UsageSummary } from '../utils/usage-series';

const CARDS = ['quota', 'count', 'tokens', 'rpm', 'tpm'] as const;

/** Quota spent, requests, tokens, and the average RPM / TPM over the chosen range. */
export function SummaryCards({ summary }: { summary: UsageSummary }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const value = (card: (typeof CARDS)[number]) =>
    card === 'quota' ? formatQuota(summary.quota) : summary[card].toLocaleString('en-US');
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} data-testid="dashboard-cards">
      {CARDS.map((card) => (
        <Paper key={card} withBorder p="md" radius="md" data-testid={`dashboard-card-${card}`}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {t(`dashboard.cards.${card}`)}
          </Text>
          <Text fw={700} fz="xl" mt={4}>
            {value(card)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
