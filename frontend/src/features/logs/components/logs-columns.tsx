import { ActionIcon, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { LogType, type LogDto } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import type { plainFeatures } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import { LogChannelCell, LogNameCell, LogUserCell, UseTime } from './log-cells';
import { LogTypeTag } from './log-type-tag';

const column = createColumnHelper<typeof plainFeatures, LogDto>();

export interface LogColumnsContext {
  t: TFunction;
  /** Adds the channel, user, group and retry columns. */
  admin: boolean;
  formatQuota: (quota: number) => string;
  onUserClick: (userId: number) => void;
  /** Rows whose details are unfolded below them. */
  expanded: ReadonlySet<number>;
  onToggle: (id: number) => void;
}

/** Keeps a short value on one line: the table grows the column instead. */
const ONE_LINE = { whiteSpace: 'nowrap' } as const;

/**
 * The log table's columns: the fold of the details, when and who, then what the call used and
 * cost. The details (pricing, content) unfold under the row instead of taking a column.
 */
export function logColumns(context: LogColumnsContext) {
  return column.columns([...originColumns(context), ...usageColumns(context)]);
}

function originColumns({ t, admin, onUserClick, expanded, onToggle }: LogColumnsContext) {
  return column.columns([
    column.display({
      id: 'expand',
      header: '',
      cell: ({ row }) => {
        const open = expanded.has(row.original.id);
        return (
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={t(open ? 'common.collapse' : 'common.expand')}
            aria-expanded={open}
            onClick={() => onToggle(row.original.id)}
          >
            {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          </ActionIcon>
        );
      },
    }),
    column.accessor('created_at', {
      header: t('logs.columns.time'),
      cell: ({ getValue }) => (
        <Text size="sm" style={ONE_LINE} data-testid="log-time">
          {formatDateTime(getValue())}
        </Text>
      ),
    }),
    ...(admin
      ? [
          column.accessor('channel', {
            header: t('logs.columns.channel'),
            cell: ({ row }) => <LogChannelCell log={row.original} />,
          }),
          column.accessor('username', {
            header: t('logs.columns.user'),
            cell: ({ row }) => <LogUserCell log={row.original} onUserClick={onUserClick} />,
          }),
          column.accessor('group', {
            header: t('logs.columns.group'),
            cell: ({ getValue }) => <LogNameCell name={getValue()} />,
          }),
        ]
      : []),
    column.accessor('token_name', {
      header: t('logs.columns.token'),
      cell: ({ getValue }) => <LogNameCell name={getValue()} />,
    }),
    column.accessor('type', {
      header: t('logs.columns.type'),
      cell: ({ getValue }) => <LogTypeTag type={getValue()} />,
    }),
    column.accessor('model_name', {
      header: t('logs.columns.model'),
      cell: ({ getValue }) => <LogNameCell name={getValue()} strong />,
    }),
  ]);
}

function usageColumns({ t, admin, formatQuota }: LogColumnsContext) {
  // Token counts mean something for consumption rows only.
  const consumeOnly = (log: LogDto, value: string | number) =>
    log.type === LogType.Consume ? value : '';
  return column.columns([
    column.accessor('use_time', {
      header: t('logs.columns.useTime'),
      cell: ({ row }) =>
        row.original.type === LogType.Consume ? <UseTime log={row.original} /> : '',
    }),
    column.accessor('prompt_tokens', {
      header: t('logs.columns.prompt'),
      cell: ({ row }) => consumeOnly(row.original, row.original.prompt_tokens),
    }),
    column.accessor('completion_tokens', {
      header: t('logs.columns.completion'),
      cell: ({ row }) => consumeOnly(row.original, row.original.completion_tokens),
    }),
    column.accessor('quota', {
      header: t('logs.columns.quota'),
      cell: ({ row }) => (
        <Text size="sm" style={ONE_LINE}>
          {row.original.quota ? formatQuota(row.original.quota) : ''}
        </Text>
      ),
    }),
    ...(admin
      ? [
          column.accessor('retry', {
            header: t('logs.columns.retry'),
            cell: ({ getValue }) => getValue(),
          }),
        ]
      : []),
  ]);
}
