import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { throttle } from '@/utils/throttle';
import { channelPerformanceQueries } from '../api/channel-performance.api';

/** However busy the relay, the channel performance is refetched at most once per this. */
export const PERFORMANCE_REFRESH_MS = 5_000;

/** Refetches the channel performance when the server says its rows moved, throttled. */
export function useLivePerformance(): void {
  const queryClient = useQueryClient();
  const refresh = useMemo(
    () =>
      throttle(() => {
        void queryClient.invalidateQueries({ queryKey: channelPerformanceQueries.all });
      }, PERFORMANCE_REFRESH_MS),
    [queryClient],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  useChangeTopic('performance', refresh);
}
