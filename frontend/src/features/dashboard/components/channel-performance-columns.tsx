import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
} from '@tanstack/react-table';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import type { dashboardZhCN } from '../locales/zh-cn';
import { formatLatency, formatRatio } from '@/features/channels';

/** A client-held table sorted by clicking its headers. */
export const sortableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic, alphanumeric: sortFn_alphanumeric },
});

const column = createColumnHelper<typeof sortableFeatures, ChannelPerformanceDto>();

/** Latencies without samples sort after every measured one. */
const NO_SAMPLE = Number.POSITIVE_INFINITY;
const ICON_SIZE = 14;

function SortIcon({ sorted }: { sorted: false | 'asc' | 'desc' }) {
  if (sorted === 'asc') return <IconArrowUp size={ICON_SIZE} />;
  if (sorted === 'desc') return <IconArrowDown size={ICON_SIZE} />;
  return <IconSelector size={ICON_SIZE} opacity={0.5} />;
}

/** What a header needs of its column to sort it. */
interface Sortable {
  getIsSorted: () => false | 'asc' | 'desc';
  getToggleSortingHandler: () => undefined | ((event: unknown) => void);
}

/** A header that sorts its column: one way, the other, then back to the server's order. */
function SortHeader({ column: col, label }: { column: Sortable; label: string }) {
  const sorted = col.getIsSorted();
  return (
    <UnstyledButton onClick={col.getToggleSortingHandler()} data-sorted={sorted || undefined}>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" fw={700}>
          {label}
        </Text>
        <SortIcon sorted={sorted} />
      </Group>
    </UnstyledButton>
  );
}

type NumberKey = {
  [K in keyof ChannelPerformanceDto]: ChannelPerformanceDto[K] extends number | null ? K : never;
}[keyof ChannelPerformanceDto];

type Title = keyof (typeof dashboardZhCN)['dashboard']['performance'];

/** The dashboard's channel performance columns, every one sortable. */
export function channelPerformanceColumns(t: TFunction) {
  const label = (key: Title) => t(`dashboard.performance.${key}`);
  const text = (key: 'channel_name' | 'model', title: Title) =>
    column.accessor(key, {
      header: ({ column: col }) => <SortHeader column={col} label={label(title)} />,
      sortFn: 'alphanumeric',
    });
  const number = (key: NumberKey, title: Title, show: (value: number | null) => string) =>
    column.accessor((row) => row[key] ?? NO_SAMPLE, {
      id: key,
      header: ({ column: col }) => <SortHeader column={col} label={label(title)} />,
      cell: ({ row }) => show(row.original[key]),
      sortFn: 'basic',
    });
  return column.columns([
    text('channel_name', 'channel'),
    text('model', 'model'),
    number('calls', 'calls', (v) => (v ?? 0).toLocaleString('en-US')),
    number('error_rate', 'errorRate', (v) => formatRatio(v ?? 0)),
    number('share', 'share', (v) => formatRatio(v ?? 0)),
    number('p50_ms', 'p50', formatLatency),
    number('p99_ms', 'p99', formatLatency),
    number('ttft_p50_ms', 'ttftP50', formatLatency),
    number('ttft_p99_ms', 'ttftP99', formatLatency),
  ]);
}
