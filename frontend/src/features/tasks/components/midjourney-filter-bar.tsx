import { useTranslation } from 'react-i18next';
import type { MidjourneyListParams } from '../api/tasks.api';
import type { MidjourneyFilterName } from '../hooks/use-tasks-table-params';
import { TaskFilterForm } from './task-filter-form';

interface MidjourneyFilterBarProps {
  params: MidjourneyListParams;
  /** The channel filter is admin-only. */
  admin: boolean;
  onSearch: (filters: Partial<Record<MidjourneyFilterName, string>>) => void;
}

/** The drawing log's filters: all text fields, applied with the button. */
export function MidjourneyFilterBar({ params, admin, onSearch }: MidjourneyFilterBarProps) {
  const { t } = useTranslation();
  return (
    <TaskFilterForm
      params={params}
      idName="mj_id"
      idLabel={t('tasks.filters.mjId')}
      admin={admin}
      columns={admin ? 5 : 4}
      onSearch={onSearch}
    />
  );
}
