import { Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { MidjourneyRow } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { plainFeatures } from '@/components/data-table';
import { formatDateTime } from '@/utils/date-time';
import type { TaskLog } from '../hooks/use-task-log';
import { isMjAction, MJ_ACTION_COLORS, SUBMIT_CODES } from '../utils/task-labels';
import { ImageThumb, TextPreview } from './task-cells';
import { type SharedTaskColumns, useTaskColumns } from './task-columns';
import { TaskLogTable } from './task-log-table';

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

/** The drawing log's columns, the shared ones in their places. */
const drawingColumns = (t: TFunction, shared: SharedTaskColumns<MidjourneyRow>) =>
  column.columns([
    column.accessor('submit_time', {
      header: t('tasks.columns.submitTime'),
      cell: ({ getValue }) => (
        <Text size="sm" miw="max-content">
          {formatDateTime(Math.floor(getValue() / 1000))}
        </Text>
      ),
    }),
    shared.duration,
    ...shared.channel,
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
    shared.status,
    shared.progress,
    column.accessor('image_url', {
      header: t('tasks.columns.image'),
      cell: ({ getValue }) => <ImageThumb url={getValue()} />,
    }),
    column.accessor('prompt', {
      header: t('tasks.columns.prompt'),
      cell: ({ getValue }) => <TextPreview text={getValue()} title={t('tasks.columns.prompt')} />,
    }),
    column.accessor('prompt_en', {
      header: t('tasks.columns.promptEn'),
      cell: ({ getValue }) => <TextPreview text={getValue()} title={t('tasks.columns.promptEn')} />,
    }),
    shared.failReason,
    shared.refund,
  ]);

export function MidjourneyTable({ log }: { log: TaskLog<MidjourneyRow> }) {
  const columns = useTaskColumns(log.admin, 'ms', drawingColumns);
  return <TaskLogTable log={log} columns={columns} testId="midjourney-table" rowTestId="mj-row" />;
}
