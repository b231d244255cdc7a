import { useTranslation } from 'react-i18next';
import { taskQueries } from '../api/tasks.api';
import { useTaskLog } from '../hooks/use-task-log';
import { useTaskTableParams } from '../hooks/use-tasks-table-params';
import { TaskFilterBar } from './task-filter-bar';
import { TaskLogLayout } from './task-log-layout';
import { TaskTable } from './task-table';

/** /task (任务日志): the asynchronous (Suno) tasks, every user's for admins, 10 per page. */
export function TaskPage() {
  const { t } = useTranslation();
  const log = useTaskLog(useTaskTableParams(), taskQueries.task);

  return (
    <TaskLogLayout title={t('tasks.taskTitle')}>
      <TaskFilterBar params={log.params} admin={log.admin} onSearch={log.search} />
      <TaskTable log={log} />
    </TaskLogLayout>
  );
}
