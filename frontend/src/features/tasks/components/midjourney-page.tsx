import { Alert, Paper, Stack, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { isAdmin } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useStatus } from '@/features/status';
import { taskQueries } from '../api/tasks.api';
import { useLiveTasks } from '../hooks/use-live-tasks';
import { useMidjourneyTableParams } from '../hooks/use-tasks-table-params';
import { MidjourneyFilterBar } from './midjourney-filter-bar';
import { MidjourneyTable } from './midjourney-table';
import { TasksPager } from './task-cells';

/** /midjourney (绘图日志): the Midjourney tasks, every user's for admins, 10 per page. */
export function MidjourneyPage() {
  const { t } = useTranslation();
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const { mj_notify_enabled } = useStatus();
  const { params, update } = useMidjourneyTableParams();
  const list = useQuery(taskQueries.midjourney(params, admin));
  useLiveTasks();

  return (
    <Stack>
      <Title order={2}>{t('tasks.midjourneyTitle')}</Title>
      {admin && !mj_notify_enabled && (
        <Alert
          variant="light"
          color="blue"
          icon={<IconInfoCircle size={18} />}
          data-testid="mj-notify-disabled"
        >
          {t('tasks.notifyDisabled')}
        </Alert>
      )}
      <Paper withBorder p="md" radius="md">
        <Stack>
          <MidjourneyFilterBar
            params={params}
            admin={admin}
            onSearch={(filters) => update({ page: 1, filters })}
          />
          <MidjourneyTable rows={list.data} loading={list.isFetching} admin={admin} />
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
