import { Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/hooks/use-draft';
import { notifyError } from '@/lib/notify';
import { formatDateTime, nowSeconds, parseDateTime } from '@/utils/date-time';
import type { TaskListParams } from '../api/tasks.api';
import type { TaskFilterName } from '../hooks/use-tasks-table-params';
import { TASK_ACTIONS, TASK_STATUSES } from '../utils/task-labels';

interface Draft {
  channel_id: string;
  task_id: string;
  start: string;
  end: string;
}

const toDraft = (params: TaskListParams): Draft => ({
  channel_id: params.channel_id,
  task_id: params.task_id,
  start: formatDateTime(params.start_timestamp),
  end: formatDateTime(params.end_timestamp ?? nowSeconds() + 3600),
});

interface TaskFilterBarProps {
  params: TaskListParams;
  /** The channel filter is admin-only. */
  admin: boolean;
  onSearch: (filters: Partial<Record<TaskFilterName, string>>) => void;
}

/** Text fields apply with the button; the status and type dropdowns apply at once. */
export function TaskFilterBar({ params, admin, onSearch }: TaskFilterBarProps) {
  const { t } = useTranslation();
  const { draft, bind } = useDraft(params, toDraft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = parseDateTime(draft.start);
    const end = parseDateTime(draft.end);
    if (start === null || end === null) return notifyError(t('tasks.badTime'));
    onSearch({
      task_id: draft.task_id.trim(),
      start: String(start),
      end: String(end),
      ...(admin ? { channel_id: draft.channel_id.trim() } : {}),
    });
  };

  const all = { value: '', label: t('tasks.filters.all') };
  return (
    <form onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: admin ? 4 : 3 }} style={{ alignItems: 'end' }}>
        {admin && <TextInput label={t('tasks.filters.channel')} {...bind('channel_id')} />}
        <TextInput label={t('tasks.filters.taskId')} {...bind('task_id')} />
        <TextInput
          label={t('tasks.filters.start')}
          placeholder={t('tasks.filters.timePlaceholder')}
          {...bind('start')}
        />
        <TextInput
          label={t('tasks.filters.end')}
          placeholder={t('tasks.filters.timePlaceholder')}
          {...bind('end')}
        />
        <Select
          label={t('tasks.filters.status')}
          data={[
            all,
            ...TASK_STATUSES.map((status) => ({
              value: status,
              label: t(`tasks.status.${status}`),
            })),
          ]}
          value={params.status}
          onChange={(value) => onSearch({ status: value ?? '' })}
          allowDeselect={false}
        />
        <Select
          label={t('tasks.filters.action')}
          data={[
            all,
            ...TASK_ACTIONS.map((action) => ({
              value: action,
              label: t(`tasks.taskAction.${action}`),
            })),
          ]}
          value={params.action}
          onChange={(value) => onSearch({ action: value ?? '' })}
          allowDeselect={false}
        />
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
      </SimpleGrid>
    </form>
  );
}
