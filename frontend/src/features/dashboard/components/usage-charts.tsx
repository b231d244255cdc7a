// The chart styles travel with the lazily loaded dashboard, not the console's start-up files.
import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Title, type MantineColor } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaDisplay, useQuotaFormatter } from '@/features/status';
import { spendAxis, stackedMax } from '../utils/spend-axis';
import type { UsageSeries } from '../utils/usage-series';

const COLORS: readonly MantineColor[] = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'red.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'indigo.6',
  'yellow.7',
  'violet.6',
  'green.7',
];

const colorOf = (index: number): MantineColor => COLORS[index % COLORS.length] ?? 'gray.6';

function ChartCard({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId} miw={0}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

const count = (value: number) => value.toLocaleString('en-US');

/**
 * Spend per bucket stacked by model, requests per bucket, and each model's share of requests. Both
 * time charts are bars: a bucket's spend is its own, not a curve smoothed into its neighbours. The
 * spend axis and tooltips use the console's money format, the axis at one precision for all ticks.
 */
export function UsageCharts({ series }: { series: UsageSeries }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const display = useQuotaDisplay();
  const axis = useMemo(
    () => spendAxis(stackedMax(series.quota, series.models), display),
    [series, display],
  );
  const chartSeries = series.models.map((model, index) => ({
    name: model.key,
    label: model.name,
    color: colorOf(index),
  }));
  return (
    <Stack>
      <ChartCard title={t('dashboard.charts.quota')} testId="dashboard-chart-quota">
        <BarChart
          h={300}
          data={series.quota}
          dataKey="label"
          series={chartSeries}
          type="stacked"
          valueFormatter={formatQuota}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          yAxisProps={{
            width: 88,
            ticks: axis.ticks,
            domain: [0, axis.ticks.at(-1) ?? 'auto'],
            tickFormatter: axis.format,
            allowDecimals: true,
          }}
        />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChartCard title={t('dashboard.charts.count')} testId="dashboard-chart-count">
          <BarChart
            h={300}
            data={series.count}
            dataKey="label"
            series={chartSeries}
            type="stacked"
            valueFormatter={count}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            yAxisProps={{ allowDecimals: false }}
          />
        </ChartCard>
        <ChartCard title={t('dashboard.charts.share')} testId="dashboard-chart-share">
          <DonutChart
            h={300}
            mx="auto"
            size={220}
            thickness={36}
            data={series.share.map((model, index) => ({
              name: model.name,
              value: model.count,
              color: colorOf(index),
            }))}
            valueFormatter={count}
            tooltipDataSource="segment"
            withLegend
          />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}
