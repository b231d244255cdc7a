import { queryOptions } from '@tanstack/react-query';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** The window the channel list and the dashboard show (minutes). */
export const PERFORMANCE_WINDOW_MINUTES = 60;

/** The `performance` pushes refetch `channelPerformanceQueries.all` (throttled, by the views). */
export const channelPerformanceQueries = {
  all: ['channel-performance'] as const,
  window: (minutes: number = PERFORMANCE_WINDOW_MINUTES) =>
    queryOptions({
      queryKey: [...channelPerformanceQueries.all, minutes] as const,
      queryFn: ({ signal }) =>
        http.get<ChannelPerformanceDto[]>('/api/channel/performance', { window: minutes }, signal),
    }),
};
