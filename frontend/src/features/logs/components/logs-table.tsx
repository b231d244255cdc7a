import { Anchor, Badge, Group, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { LogType, type LogDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  plainFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
import { firstTokenColor, requestTimeColor } from '../utils/latency';
import { parseOther } from '../utils/log-other';
import { LogDetails } from './log-details';
import { LogTypeTag } from './log-type-tag';

const column = createColumnHelper<typeof plainFeatures, LogDto>();

interface LogsTableProps {
  rows: LogDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
  /** Adds the channel, user and retry columns (spec 001 §6). */
  admin: boolean;
  onUserClick: (userId: number) => void;
}

function UseTime({ log }: { log: LogDto }) {
  const { t } = useTranslation();
  const other = parseOther(log.other);
  // `frt` is recorded in milliseconds, the colour bands are in seconds.
  const firstToken = typeof other.frt === 'number' && other.frt > 0 ? other.frt / 1000 : null;
  const timeColor = requestTimeColor(log.use_time);
  const firstColor = firstToken === null ? undefined : firstTokenColor(firstToken);
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="light" color={timeColor} data-color={timeColor}>
        {t('logs.seconds', { value: log.use_time })}
      </Badge>
      {log.is_stream && firstToken !== null && (
        <Badge variant="light" color={firstColor} data-color={firstColor}>
          {t('logs.firstToken', { value: firstToken.toFixed(1) })}
        </Badge>
      )}
      <Badge variant="outline" color={log.is_stream ? 'blue' : 'gray'}>
        {log.is_stream ? t('logs.stream') : t('logs.notStream')}
      </Badge>
    </Group>
  );
}

export function LogsTable({ rows, paging, loading, admin, onUserClick }: LogsTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  const columns = useMemo(() => {
    const consumeOnly = (log: LogDto, value: string | number) =>
      log.type === LogType.Consume ? value : '';
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
              cell: ({ row }) =>
                row.original.username ? (
                  <Anchor
                    component="button"
                    size="sm"
                    onClick={() => onUserClick(row.original.user_id)}
                  >
                    {row.original.username}
                  </Anchor>
                ) : (
                  ''
                ),
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
  }, [t, admin, formatQuota, onUserClick]);

  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={admin ? 1100 : 900}
      testId="logs-table"
      striped
      rowProps={(row) => ({ 'data-testid': `log-row-${row.original.id}` })}
    />
  );
}
