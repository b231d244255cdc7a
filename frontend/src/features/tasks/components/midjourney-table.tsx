import { Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { MidjourneyRow } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableView, plainFeatures, useServerTable } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import { isMjAction, MJ_ACTION_COLORS, SUBMIT_CODES } from '../utils/task-labels';
import {
  Duration,
  FailReason,
  ImageThumb,
  ProgressCell,
  RefundTag,
  StatusTag,
  TextPreview,
} from './task-cells';

const column = createColumnHelper<typeof plainFeatures, MidjourneyRow>();

function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const known = isMjAction(action);
  return (
    <Badge miw="max-content" variant="light" color={known ? MJ_ACTION_COLORS[action] : 'gray'}>
      {known ? t(`tasks.mjAction.${action}`) : action || t('tasks.unknown')}
    </Badge>
  );
}

function SubmitResult({ code }: { code: number }) {
  const { t } = useTranslation();
  const known = SUBMIT_CODES[code as keyof typeof SUBMIT_CODES] as
    (typeof SUBMIT_CODES)[keyof typeof SUBMIT_CODES] | undefined;
  return (
    <Badge miw="max-content" variant="light" color={known?.color ?? 'gray'}>
      {known ? t(`tasks.code.${known.key}`) : t('tasks.unknown')}
    </Badge>
  );
}

interface MidjourneyTableProps {
  rows: MidjourneyRow[] | undefined;
  loading: boolean;
  /** Adds the channel column. */
  admin: boolean;
}

/** Milliseconds from submission to the end, in seconds; null while the task runs. */
const durationOf = (row: MidjourneyRow) =>
  row.finish_time > 0 && row.submit_time > 0
    ? Math.max(0, (row.finish_time - row.submit_time) / 1000)
    : null;

export function MidjourneyTable({ rows, loading, admin }: MidjourneyTableProps) {
  const { t } = useTranslation();

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('submit_time', {
          header: t('tasks.columns.submitTime'),
          cell: ({ getValue }) => (
            <Text size="sm" miw="max-content">
              {formatDateTime(Math.floor(getValue() / 1000))}
            </Text>
          ),
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
        column.accessor('action', {
          header: t('tasks.columns.type'),
          cell: ({ getValue }) => <ActionTag action={getValue()} />,
        }),
        column.accessor('mj_id', {
          header: t('tasks.columns.taskId'),
          cell: ({ getValue }) => (
            <Text size="sm" ff="monospace">
              {getValue()}
            </Text>
          ),
        }),
        column.accessor('code', {
          header: t('tasks.columns.submitResult'),
          cell: ({ getValue }) => <SubmitResult code={getValue()} />,
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
        column.accessor('image_url', {
          header: t('tasks.columns.image'),
          cell: ({ getValue }) => <ImageThumb url={getValue()} />,
        }),
        column.accessor('prompt', {
          header: t('tasks.columns.prompt'),
          cell: ({ getValue }) => (
            <TextPreview text={getValue()} title={t('tasks.columns.prompt')} />
          ),
        }),
        column.accessor('prompt_en', {
          header: t('tasks.columns.promptEn'),
          cell: ({ getValue }) => (
            <TextPreview text={getValue()} title={t('tasks.columns.promptEn')} />
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
      ]),
    [t, admin],
  );

  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTableView
      table={table}
      loading={loading}
      minWidth={admin ? 1500 : 1400}
      testId="midjourney-table"
      striped
      rowProps={(row) => ({ 'data-testid': `mj-row-${row.original.id}` })}
    />
  );
}
