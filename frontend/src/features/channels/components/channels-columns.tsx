import { Badge } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { ChannelDto, ChannelPerformanceDto } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { selectableFeatures, selectColumn } from '@/components/data-table';
import { TASK_CHANNEL_TYPES, type ChannelPollState } from '../api/channels.api';
import type { usePatchChannel } from '../hooks/use-channel-mutations';
import { channelTypeName } from '../utils/channel-display';
import { MIN_PRIORITY, MIN_WEIGHT } from '../utils/channel-numbers';
import { ChannelActions } from './channel-actions';
import { ChannelPerformanceCell } from './channel-performance-cell';
import { ChannelBalanceCell, ChannelNameCell, ChannelStatusCell } from './channel-cells';
import { GroupTags } from './group-tags';
import { InlineNumberCell } from './inline-number-cell';
import { ResponseTimeTag } from './response-time-tag';

const column = createColumnHelper<typeof selectableFeatures, ChannelDto>();

export interface ChannelColumnsContext {
  t: TFunction;
  patchChannel: ReturnType<typeof usePatchChannel>['mutate'];
  onEdit: (id: number) => void;
  /** The task poller's state by channel id (Midjourney / Suno channels), if asked. */
  pollStates?: ReadonlyMap<number, ChannelPollState>;
  /** The last hour's performance rows by channel id. */
  performance?: ReadonlyMap<number, ChannelPerformanceDto[]>;
}

/** The channel list's columns: what the channel is, how it does, how the relay ranks it. */
export function channelColumns(context: ChannelColumnsContext) {
  return column.columns([...describingColumns(context), ...rankingColumns(context)]);
}

const NO_PERFORMANCE: ChannelPerformanceDto[] = [];

function describingColumns({ t, pollStates, performance }: ChannelColumnsContext) {
  return column.columns([
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
      cell: ({ row }) => <ChannelNameCell channel={row.original} />,
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
        return <ChannelStatusCell channel={row.original} poll={poll} />;
      },
    }),
    column.accessor('response_time', {
      header: t('channels.columns.responseTime'),
      cell: ({ row }) => <ResponseTimeTag channel={row.original} />,
    }),
    column.display({
      id: 'performance',
      header: t('channels.columns.performance'),
      cell: ({ row }) => (
        <ChannelPerformanceCell rows={performance?.get(row.original.id) ?? NO_PERFORMANCE} />
      ),
    }),
    column.display({
      id: 'balance',
      header: t('channels.columns.balance'),
      cell: ({ row }) => <ChannelBalanceCell channel={row.original} />,
    }),
  ]);
}

function rankingColumns({ t, patchChannel, onEdit }: ChannelColumnsContext) {
  return column.columns([
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
  ]);
}
