import { Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isAdmin } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { taskQueries } from '../api/tasks.api';
import { useLiveTasks } from '../hooks/use-live-tasks';
import { useTaskTableParams } from '../hooks/use-tasks-table-params';
import { TasksPager } from './task-cells';
import { TaskFilterBar } from './task-filter-bar';
import { TaskTable } from './task-table';

/** /task (任务日志): the asynchronous (Suno) tasks, every user's for admins, 10 per page. */
export function TaskPage() {
  const { t } = useTranslation();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const { params, update } = useTaskTableParams();
  const list = useQuery(taskQueries.task(params, admin));
  useLiveTasks();

  return (
    <Stack>
      <Title order={2}>{t('tasks.taskTitle')}</Title>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <TaskFilterBar
            params={params}
            admin={admin}
            onSearch={(filters) => update({ page: 1, filters })}
          />
          <TaskTable rows={list.data} loading={list.isFetching} admin={admin} />
          <TasksPager
            page={params.page}
            rows={list.data?.length ?? 0}
            loading={list.isPlaceholderData}
            onPage={(page) => update({ page })}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
