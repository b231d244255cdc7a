import { Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { TaskRow } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableView, plainFeatures, useServerTable } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import { isTaskAction, TASK_ACTION_COLORS } from '../utils/task-labels';
import {
  AudioPlayers,
  Duration,
  FailReason,
  JsonDetail,
  ProgressCell,
  RefundTag,
  StatusTag,
} from './task-cells';

const column = createColumnHelper<typeof plainFeatures, TaskRow>();

const PLATFORMS: Record<string, { label: string; color: string }> = {
  suno: { label: 'Suno', color: 'green' },
};

function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const known = isTaskAction(action);
  return (
    <Badge miw="max-content" variant="light" color={known ? TASK_ACTION_COLORS[action] : 'gray'}>
      {known ? t(`tasks.taskAction.${action}`) : action || t('tasks.unknown')}
    </Badge>
  );
}

const timeCell = (seconds: number) => (
  <Text size="sm" miw="max-content">
    {seconds > 0 ? formatDateTime(seconds) : '—'}
  </Text>
);

/** Seconds from submission to the end; null while the task runs. */
const durationOf = (row: TaskRow) =>
  row.finish_time > 0 && row.submit_time > 0
    ? Math.max(0, row.finish_time - row.submit_time)
    : null;

interface TaskTableProps {
  rows: TaskRow[] | undefined;
  loading: boolean;
  /** Adds the channel column. */
  admin: boolean;
}

export function TaskTable({ rows, loading, admin }: TaskTableProps) {
  const { t } = useTranslation();

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('submit_time', {
          header: t('tasks.columns.submitTime'),
          cell: ({ getValue }) => timeCell(getValue()),
        }),
        column.accessor('finish_time', {
          header: t('tasks.columns.finishTime'),
          cell: ({ getValue }) => timeCell(getValue()),
        }),
        column.display({
          id: 'duration',
          header: t('tasks.columns.duration'),
          cell: ({ row }) => <Duration seconds={durationOf(row.original)} />,
        }),
        ...(admin
          ? [
              column.accessor('channel_id', {
                header: t('tasks.columns.channel'),
                cell: ({ getValue }) =>
                  getValue() ? <Badge variant="outline">{getValue()}</Badge> : '',
              }),
            ]
          : []),
        column.accessor('platform', {
          header: t('tasks.columns.platform'),
          cell: ({ getValue }) => {
            const platform = PLATFORMS[getValue()];
            return (
              <Badge miw="max-content" variant="light" color={platform?.color ?? 'gray'} tt="none">
                {platform?.label ?? getValue()}
              </Badge>
            );
          },
        }),
        column.accessor('action', {
          header: t('tasks.columns.type'),
          cell: ({ getValue }) => <ActionTag action={getValue()} />,
        }),
        column.accessor('task_id', {
          header: t('tasks.columns.taskId'),
          cell: ({ row }) => <JsonDetail label={row.original.task_id} row={row.original} />,
        }),
        column.accessor('status', {
          header: t('tasks.columns.status'),
          cell: ({ getValue }) => <StatusTag status={getValue()} />,
        }),
        column.accessor('progress', {
          header: t('tasks.columns.progress'),
          cell: ({ getValue }) => (
            <ProgressCell progress={getValue()} label={t('tasks.columns.progress')} />
          ),
        }),
        column.accessor('fail_reason', {
          header: t('tasks.columns.failReason'),
          cell: ({ getValue }) => <FailReason reason={getValue()} />,
        }),
        column.accessor('refund_quota', {
          header: t('tasks.columns.refund'),
          cell: ({ getValue }) => <RefundTag quota={getValue()} />,
        }),
        column.display({
          id: 'result',
          header: t('tasks.columns.result'),
          cell: ({ row }) =>
            row.original.status === 'SUCCESS' && row.original.platform === 'suno' ? (
              <AudioPlayers data={row.original.data} />
            ) : null,
        }),
      ]),
    [t, admin],
  );

  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTableView
      table={table}
      loading={loading}
      minWidth={admin ? 1500 : 1400}
      testId="task-table"
      striped
      rowProps={(row) => ({ 'data-testid': `task-row-${row.original.id}` })}
    />
  );
}
