import { Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableView } from '@/components/data-table';
import { channelPerformanceQueries, useLivePerformance } from '@/features/channels';
import { channelPerformanceColumns, sortableFeatures } from './channel-performance-columns';

const NO_ROWS: never[] = [];

/**
 * Admins: what each channel did per model over the last hour (GET /api/channel/performance),
 * sortable by any column, refetched on `performance` pushes (throttled).
 */
export function ChannelPerformanceCard() {
  const { t } = useTranslation();
  const query = useQuery(channelPerformanceQueries.window());
  useLivePerformance();
  const columns = useMemo(() => channelPerformanceColumns(t), [t]);
  const table = useTable({
    features: sortableFeatures,
    columns,
    data: query.data ?? NO_ROWS,
    getRowId: (row) => `${row.channel_id}:${row.model}`,
  });
  return (
    <Paper withBorder p="md" radius="md" data-testid="dashboard-performance">
      <Title order={4}>{t('dashboard.performance.title')}</Title>
      <Text size="xs" c="dimmed" mb="sm">
        {t('dashboard.performance.hint')}
      </Text>
      <DataTableView
        table={table}
        loading={query.isFetching}
        minWidth={960}
        testId="channel-performance-table"
        striped
        rowProps={(row) => ({ 'data-testid': `performance-row-${row.id}` })}
      />
    </Paper>
  );
}
