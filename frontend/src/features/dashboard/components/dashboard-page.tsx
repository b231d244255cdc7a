import { Center, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { isAdmin } from '@tollgate/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useStatus } from '@/features/status';
import { nowSeconds } from '@/utils/date-time';
import { dashboardQueries, type DashboardFilters } from '../api/dashboard.api';
import { useLiveDashboard } from '../hooks/use-live-dashboard';
import {
  buildUsageSeries,
  defaultRange,
  GRANULARITIES,
  granularityOf,
  summarizeUsage,
  type Granularity,
} from '../utils/usage-series';
import { ChannelPerformanceCard } from './channel-performance-card';
import { DashboardFilterBar } from './dashboard-filter-bar';
import { FailureRates } from './failure-rates';
import { SummaryCards } from './summary-cards';
import { UsageCharts } from './usage-charts';

/**
 * /detail (shown while DataExportEnabled): the hourly usage rows of a range (GET /api/data/self,
 * or /api/data/ for admins, optionally one user's), as summary cards and charts grouped per hour,
 * day or week, and the failure rates of the range; for admins, the channel performance of the last
 * hour. Follows new usage live.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data_export_default_time } = useStatus();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const [granularity, setGranularity] = useState<Granularity>(() =>
    granularityOf(data_export_default_time),
  );
  const [filters, setFilters] = useState<DashboardFilters>(() => ({
    ...defaultRange(granularityOf(data_export_default_time), nowSeconds()),
    username: '',
  }));
  const data = useQuery(dashboardQueries.data(filters, admin));
  const failures = useQuery(dashboardQueries.failures(filters, admin));
  useLiveDashboard();

  const rows = useMemo(() => data.data ?? [], [data.data]);
  const range = useMemo(
    () => ({ start: filters.start_timestamp, end: filters.end_timestamp }),
    [filters],
  );
  const series = useMemo(
    () => buildUsageSeries(rows, granularity, range),
    [rows, granularity, range],
  );
  const summary = useMemo(() => summarizeUsage(rows, range), [rows, range]);

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={2}>{t('dashboard.title')}</Title>
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t('dashboard.filters.granularity')}
          </Text>
          <SegmentedControl
            value={granularity}
            onChange={setGranularity}
            data={GRANULARITIES.map((value) => ({
              value,
              label: t(`dashboard.granularity.${value}`),
            }))}
            data-testid="dashboard-granularity"
          />
        </Group>
      </Group>
      <Paper withBorder p="md" radius="md">
        <DashboardFilterBar filters={filters} admin={admin} onSearch={setFilters} />
      </Paper>
      <SummaryCards summary={summary} />
      {data.data === undefined ? (
        <Center h={200}>{data.isFetching && <Loader />}</Center>
      ) : rows.length === 0 ? (
        <Paper withBorder p="xl" radius="md" data-testid="dashboard-empty">
          <Stack align="center" gap="xs">
            <IconChartAreaLine size={40} stroke={1.2} color="var(--mantine-color-dimmed)" />
            <Text c="dimmed">{t('dashboard.empty')}</Text>
          </Stack>
        </Paper>
      ) : (
        <UsageCharts series={series} />
      )}
      {failures.data && <FailureRates rows={failures.data} admin={admin} />}
      {admin && <ChannelPerformanceCard />}
    </Stack>
  );
}
