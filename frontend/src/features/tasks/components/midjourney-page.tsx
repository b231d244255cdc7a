import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { taskQueries } from '../api/tasks.api';
import { useTaskLog } from '../hooks/use-task-log';
import { useMidjourneyTableParams } from '../hooks/use-tasks-table-params';
import { MidjourneyFilterBar } from './midjourney-filter-bar';
import { MidjourneyTable } from './midjourney-table';
import { TaskLogLayout } from './task-log-layout';

/** /midjourney (绘图日志): the Midjourney tasks, every user's for admins, 10 per page. */
export function MidjourneyPage() {
  const { t } = useTranslation();
  const { mj_notify_enabled } = useStatus();
  const log = useTaskLog(useMidjourneyTableParams(), taskQueries.midjourney);

  return (
    <TaskLogLayout
      title={t('tasks.midjourneyTitle')}
      notice={
        log.admin &&
        !mj_notify_enabled && (
          <Alert
            variant="light"
            color="blue"
            icon={<IconInfoCircle size={18} />}
            data-testid="mj-notify-disabled"
          >
            {t('tasks.notifyDisabled')}
          </Alert>
        )
      }
    >
      <MidjourneyFilterBar params={log.params} admin={log.admin} onSearch={log.search} />
      <MidjourneyTable log={log} />
    </TaskLogLayout>
  );
}
