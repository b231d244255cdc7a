import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { throttle } from '@/utils/throttle';
import { taskQueries } from '../api/tasks.api';

/** However often tasks progress (many drawings at once), the page refetches at most once per this. */
export const TASKS_REFRESH_MS = 1_000;

/**
 * Refetches the shown page when the server says a task was submitted, progressed, finished or was
 * refunded, so progress and results appear without a reload.
 */
export function useLiveTasks(): void {
  const queryClient = useQueryClient();
  const refresh = useMemo(
    () =>
      throttle(() => {
        void queryClient.invalidateQueries({ queryKey: taskQueries.all });
      }, TASKS_REFRESH_MS),
    [queryClient],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  useChangeTopic('tasks', refresh);
}
