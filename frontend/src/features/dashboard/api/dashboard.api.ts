import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FailureRateDto, QuotaDataRowDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

export interface DashboardFilters {
  /** Unix seconds. */
  start_timestamp: number;
  end_timestamp: number;
  /** Admin only: one user's rows ('' = everyone, summed). */
  username: string;
}

/** The dashboard's `usage` pushes refetch `dashboardQueries.all` (throttled, by the page). */
export const dashboardQueries = {
  all: ['dashboard'] as const,
  data: (filters: DashboardFilters, admin: boolean) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, 'data', admin, filters] as const,
      queryFn: ({ signal }) =>
        http.get<QuotaDataRowDto[]>(
          admin ? '/api/data/' : '/api/data/self',
          {
            start_timestamp: filters.start_timestamp,
            end_timestamp: filters.end_timestamp,
            username: admin ? filters.username || undefined : undefined,
          },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  /** Failed ÷ all calls in the range: per channel for admins, per model of one's own calls. */
  failures: (filters: DashboardFilters, admin: boolean) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, 'failures', admin, filters] as const,
      queryFn: ({ signal }) =>
        http.get<FailureRateDto[]>(
          admin ? '/api/data/failures' : '/api/data/self/failures',
          { start_timestamp: filters.start_timestamp, end_timestamp: filters.end_timestamp },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
};
