import { Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { LogType, type LogDto } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import type { plainFeatures } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import { LogDetails } from './log-details';
import { LogUserCell, UseTime } from './log-cells';
import { LogTypeTag } from './log-type-tag';

const column = createColumnHelper<typeof plainFeatures, LogDto>();

export interface LogColumnsContext {
  t: TFunction;
  /** Adds the channel, user and retry columns. */
  admin: boolean;
  formatQuota: (quota: number) => string;
  onUserClick: (userId: number) => void;
}

/** The log table's columns: when and who, then what the call used and cost. */
export function logColumns(context: LogColumnsContext) {
  return column.columns([...originColumns(context), ...usageColumns(context)]);
}

function originColumns({ t, admin, onUserClick }: LogColumnsContext) {
  return column.columns([
    column.accessor('created_at', {
      header: t('logs.columns.time'),
      cell: ({ getValue }) => <Text size="sm">{formatDateTime(getValue())}</Text>,
    }),
    ...(admin
      ? [
          column.accessor('channel', {
            header: t('logs.columns.channel'),
            cell: ({ getValue }) =>
              getValue() ? <Badge variant="outline">{getValue()}</Badge> : '',
          }),
          column.accessor('username', {
            header: t('logs.columns.user'),
            cell: ({ row }) => <LogUserCell log={row.original} onUserClick={onUserClick} />,
          }),
        ]
      : []),
    column.accessor('token_name', {
      header: t('logs.columns.token'),
      cell: ({ getValue }) => (getValue() ? <Badge variant="light">{getValue()}</Badge> : ''),
    }),
    column.accessor('type', {
      header: t('logs.columns.type'),
      cell: ({ getValue }) => <LogTypeTag type={getValue()} />,
    }),
    column.accessor('model_name', {
      header: t('logs.columns.model'),
      cell: ({ getValue }) =>
        getValue() ? (
          <Badge variant="light" color="grape">
            {getValue()}
          </Badge>
        ) : (
          ''
        ),
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
      cell: ({ row }) => (row.original.quota ? formatQuota(row.original.quota) : ''),
    }),
    ...(admin
      ? [
          column.accessor('retry', {
            header: t('logs.columns.retry'),
            cell: ({ getValue }) => getValue(),
          }),
        ]
      : []),
    column.accessor('content', {
      header: t('logs.columns.details'),
      cell: ({ row }) => <LogDetails log={row.original} admin={admin} />,
    }),
  ]);
}
