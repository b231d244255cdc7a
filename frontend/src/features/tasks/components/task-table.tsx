import { Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { TaskRow } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { plainFeatures } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import type { TaskLog } from '../hooks/use-task-log';
import { isTaskAction, TASK_ACTION_COLORS } from '../utils/task-labels';
import { AudioPlayers, JsonDetail } from './task-cells';
import { type SharedTaskColumns, useTaskColumns } from './task-columns';
import { TaskLogTable } from './task-log-table';

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

/** The task log's columns, the shared ones in their places. */
const taskColumns = (t: TFunction, shared: SharedTaskColumns<TaskRow>) =>
  column.columns([
    column.accessor('submit_time', {
      header: t('tasks.columns.submitTime'),
      cell: ({ getValue }) => timeCell(getValue()),
    }),
    column.accessor('finish_time', {
      header: t('tasks.columns.finishTime'),
      cell: ({ getValue }) => timeCell(getValue()),
    }),
    shared.duration,
    ...shared.channel,
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
    shared.status,
    shared.progress,
    shared.failReason,
    shared.refund,
    column.display({
      id: 'result',
      header: t('tasks.columns.result'),
      cell: ({ row }) =>
        row.original.status === 'SUCCESS' && row.original.platform === 'suno' ? (
          <AudioPlayers data={row.original.data} />
        ) : null,
    }),
  ]);

export function TaskTable({ log }: { log: TaskLog<TaskRow> }) {
  const columns = useTaskColumns(log.admin, 's', taskColumns);
  return <TaskLogTable log={log} columns={columns} testId="task-table" rowTestId="task-row" />;
}
