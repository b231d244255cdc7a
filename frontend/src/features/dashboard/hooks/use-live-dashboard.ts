import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { throttle } from '@/utils/throttle';
import { dashboardQueries } from '../api/dashboard.api';

/** However fast usage arrives (a busy relay), the dashboard refetches at most once per this. */
export const DASHBOARD_REFRESH_MS = 5_000;

/** Refetches the shown range when the server says the hourly usage rows moved, throttled. */
export function useLiveDashboard(): void {
  const queryClient = useQueryClient();
  const refresh = useMemo(
    () =>
      throttle(() => {
        void queryClient.invalidateQueries({ queryKey: dashboardQueries.all });
      }, DASHBOARD_REFRESH_MS),
    [queryClient],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  useChangeTopic('usage', refresh);
}
