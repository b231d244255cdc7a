import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  createColumnHelper,
  functionalUpdate,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table';
import { ChannelStatus, type ChannelDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  selectableFeatures,
  selectColumn,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useQuotaFormatter } from '@/features/status';
import { TASK_CHANNEL_TYPES, type ChannelPollState } from '../api/channels.api';
import { usePatchChannel } from '../hooks/use-channel-mutations';
import { channelTypeName, formatUnixTime } from '../utils/channel-display';
import { MIN_PRIORITY, MIN_WEIGHT } from '../utils/channel-numbers';
import { ChannelActions } from './channel-actions';
import { ChannelPollBadge } from './channel-poll-badge';
import { ChannelStatusTag } from './channel-status-tag';
import { GroupTags } from './group-tags';
import { InlineNumberCell } from './inline-number-cell';
import { ResponseTimeTag } from './response-time-tag';

const column = createColumnHelper<typeof selectableFeatures, ChannelDto>();

interface ChannelsTableProps {
  rows: ChannelDto[] | undefined;
  /** Without a total: the channel list is a bare array (spec 000 §7). */
  paging: Omit<ServerPaging, 'total'>;
  loading: boolean;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onEdit: (id: number) => void;
  /** The task poller's state by channel id (Midjourney / Suno channels), if asked. */
  pollStates?: ReadonlyMap<number, ChannelPollState>;
}

export function ChannelsTable({
  rows,
  paging,
  loading,
  selection,
  onSelectionChange,
  onEdit,
  pollStates,
}: ChannelsTableProps) {
  const { t, i18n } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const patch = usePatchChannel();
  const patchChannel = patch.mutate;

  const columns = useMemo(
    () =>
      column.columns([
        selectColumn(
          column,
          {
            all: t('channels.selectAll'),
            row: (channel) => t('channels.selectRow', { name: channel.name }),
          },
          'page',
        ),
        column.accessor('id', { header: t('channels.columns.id') }),
        column.accessor('name', {
          header: t('channels.columns.name'),
          cell: ({ row }) => (
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {row.original.name}
              </Text>
              {row.original.tag && (
                <Text size="xs" c="dimmed">
                  {row.original.tag}
                </Text>
              )}
            </Stack>
          ),
        }),
        column.accessor('group', {
          header: t('channels.columns.group'),
          cell: ({ getValue }) => <GroupTags groups={getValue()} />,
        }),
        column.accessor('type', {
          header: t('channels.columns.type'),
          cell: ({ getValue }) => (
            <Badge miw="max-content" variant="outline" color="gray" tt="none">
              {channelTypeName(getValue()) ?? t('channels.unknownType')}
            </Badge>
          ),
        }),
        column.accessor('status', {
          header: t('channels.columns.status'),
          cell: ({ row }) => {
            const { id, type } = row.original;
            const poll = TASK_CHANNEL_TYPES.has(type) ? pollStates?.get(id) : undefined;
            return (
              <Group gap={4} wrap="nowrap">
                <ChannelStatusTag channel={row.original} />
                <ChannelPollBadge state={poll} />
              </Group>
            );
          },
        }),
        column.accessor('response_time', {
          header: t('channels.columns.responseTime'),
          cell: ({ row }) => <ResponseTimeTag channel={row.original} />,
        }),
        column.display({
          id: 'balance',
          header: t('channels.columns.balance'),
          cell: ({ row }) => {
            const updatedAt = formatUnixTime(row.original.balance_updated_time, i18n.language);
            return (
              <Stack gap={4} align="flex-start">
                <Tooltip label={t('channels.usedQuota')}>
                  <Badge miw="max-content" variant="light" color="gray">
                    {formatQuota(row.original.used_quota)}
                  </Badge>
                </Tooltip>
                <Tooltip
                  label={
                    updatedAt
                      ? t('channels.balanceUpdatedAt', { time: updatedAt })
                      : t('channels.balance')
                  }
                >
                  <Badge
                    miw="max-content"
                    variant="light"
                    color="blue"
                    data-testid="channel-balance"
                  >
                    ${(row.original.balance ?? 0).toFixed(2)}
                  </Badge>
                </Tooltip>
              </Stack>
            );
          },
        }),
        column.accessor('priority', {
          header: t('channels.columns.priority'),
          cell: ({ row }) => (
            <InlineNumberCell
              key={`${row.original.id}:${row.original.priority}`}
              value={row.original.priority}
              minimum={MIN_PRIORITY}
              label={t('channels.priorityOf', { name: row.original.name })}
              hint={t('channels.priorityHint')}
              onCommit={(priority) => patchChannel({ id: row.original.id, priority })}
            />
          ),
        }),
        column.accessor('weight', {
          header: t('channels.columns.weight'),
          cell: ({ row }) => (
            <InlineNumberCell
              key={`${row.original.id}:${row.original.weight}`}
              value={row.original.weight}
              minimum={MIN_WEIGHT}
              label={t('channels.weightOf', { name: row.original.name })}
              hint={t('channels.weightHint')}
              onCommit={(weight) => patchChannel({ id: row.original.id, weight })}
            />
          ),
        }),
        column.display({
          id: 'actions',
          header: t('channels.columns.actions'),
          cell: ({ row }) => <ChannelActions channel={row.original} onEdit={onEdit} />,
        }),
      ]),
    [t, i18n.language, formatQuota, patchChannel, onEdit, pollStates],
  );

  const table = useServerTable({
    features: selectableFeatures,
    columns,
    data: rows,
    enableRowRangeSelection: false,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater: Updater<RowSelectionState>) =>
      onSelectionChange(functionalUpdate(updater, selection)),
  });

  return (
    <DataTable
      table={table}
      paging={paging}
      summary={t('channels.page', { page: paging.page })}
      loading={loading}
      minWidth={960}
      testId="channels-table"
      striped
      rowProps={(row) => {
        // Spec 000 §4: a disabled channel's row is greyed.
        const disabled = row.original.status !== ChannelStatus.Enabled;
        return {
          'data-testid': `channel-row-${row.original.id}`,
          'data-disabled': disabled || undefined,
          style: disabled
            ? {
                backgroundColor: 'var(--mantine-color-gray-light)',
                color: 'var(--mantine-color-dimmed)',
              }
            : undefined,
        };
      }}
    />
  );
}
