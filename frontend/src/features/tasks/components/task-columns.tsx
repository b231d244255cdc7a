import { Badge } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { plainFeatures } from '@/components/data-table';
import { Duration, FailReason, ProgressCell, RefundTag, StatusTag } from './task-cells';

/** The fields a drawing (MidjourneyRow) and a task (TaskRow) both carry. */
interface TaskLogRow {
  submit_time: number;
  /** 0 while the task runs. */
  finish_time: number;
  /** Absent in a user's own list. */
  channel_id?: number;
  status: string;
  progress: string;
  fail_reason: string;
  refund_quota: number;
}

/** Drawings count time in milliseconds, tasks in seconds. */
export type TimeUnit = 'ms' | 's';

/** Seconds from submission to the end; null while the task runs. */
const durationOf = (row: TaskLogRow, unit: TimeUnit) =>
  row.finish_time > 0 && row.submit_time > 0
    ? Math.max(0, (row.finish_time - row.submit_time) / (unit === 'ms' ? 1000 : 1))
    : null;

/** The columns both task logs show, for each table to place among its own. */
function sharedTaskColumns<R extends TaskLogRow>(t: TFunction, admin: boolean, unit: TimeUnit) {
  const column = createColumnHelper<typeof plainFeatures, R>();
  return {
    duration: column.display({
      id: 'duration',
      header: t('tasks.columns.duration'),
      cell: ({ row }) => <Duration seconds={durationOf(row.original, unit)} />,
    }),
    /** Admin-only: empty for users, to spread into the list. */
    channel: admin
      ? [
          column.display({
            id: 'channel_id',
            header: t('tasks.columns.channel'),
            cell: ({ row }) => {
              const channel = row.original.channel_id;
              return channel ? <Badge variant="outline">{channel}</Badge> : '';
            },
          }),
        ]
      : [],
    status: column.display({
      id: 'status',
      header: t('tasks.columns.status'),
      cell: ({ row }) => <StatusTag status={row.original.status} />,
    }),
    progress: column.display({
      id: 'progress',
      header: t('tasks.columns.progress'),
      cell: ({ row }) => (
        <ProgressCell progress={row.original.progress} label={t('tasks.columns.progress')} />
      ),
    }),
    failReason: column.display({
      id: 'fail_reason',
      header: t('tasks.columns.failReason'),
      cell: ({ row }) => <FailReason reason={row.original.fail_reason} />,
    }),
    refund: column.display({
      id: 'refund_quota',
      header: t('tasks.columns.refund'),
      cell: ({ row }) => <RefundTag quota={row.original.refund_quota} />,
    }),
  };
}

export type SharedTaskColumns<R extends TaskLogRow> = ReturnType<typeof sharedTaskColumns<R>>;

/**
 * A task log's columns, made again only when the language or the admin flag changes. `build` (a
 * module-level function) lays out the table's own columns around the shared ones.
 */
export function useTaskColumns<R extends TaskLogRow, C>(
  admin: boolean,
  unit: TimeUnit,
  build: (t: TFunction, shared: SharedTaskColumns<R>) => C,
): C {
  const { t } = useTranslation();
  return useMemo(() => build(t, sharedTaskColumns<R>(t, admin, unit)), [t, admin, unit, build]);
}
