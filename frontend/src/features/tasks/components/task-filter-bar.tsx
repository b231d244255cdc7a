import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TaskListParams } from '../api/tasks.api';
import type { TaskFilterName } from '../hooks/use-tasks-table-params';
import { TASK_ACTIONS, TASK_STATUSES } from '../utils/task-labels';
import { TaskFilterForm } from './task-filter-form';

interface TaskFilterBarProps {
  params: TaskListParams;
  /** The channel filter is admin-only. */
  admin: boolean;
  onSearch: (filters: Partial<Record<TaskFilterName, string>>) => void;
}

/** Text fields apply with the button; the status and type dropdowns apply at once. */
export function TaskFilterBar({ params, admin, onSearch }: TaskFilterBarProps) {
  const { t } = useTranslation();
  return (
    <TaskFilterForm
      params={params}
      idName="task_id"
      idLabel={t('tasks.filters.taskId')}
      admin={admin}
      columns={admin ? 4 : 3}
      onSearch={onSearch}
    >
      <ImmediateSelect
        label={t('tasks.filters.status')}
        options={TASK_STATUSES.map((status) => ({
          value: status,
          label: t(`tasks.status.${status}`),
        }))}
        value={params.status}
        onChange={(status) => onSearch({ status })}
      />
      <ImmediateSelect
        label={t('tasks.filters.action')}
        options={TASK_ACTIONS.map((action) => ({
          value: action,
          label: t(`tasks.taskAction.${action}`),
        }))}
        value={params.action}
        onChange={(action) => onSearch({ action })}
      />
    </TaskFilterForm>
  );
}

interface ImmediateSelectProps {
  label: string;
  options: { value: string; label: string }[];
  /** '' = all. */
  value: string;
  onChange: (value: string) => void;
}

/** A dropdown that filters as soon as it changes, 全部 ('') first. */
function ImmediateSelect({ label, options, value, onChange }: ImmediateSelectProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={label}
      data={[{ value: '', label: t('tasks.filters.all') }, ...options]}
      value={value}
      onChange={(next) => onChange(next ?? '')}
      allowDeselect={false}
    />
  );
}
