import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { LogPageDto, LogStatDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

export interface LogFilters {
  /** '' = every type. */
  type: string;
  token_name: string;
  model_name: string;
  /** Unix seconds. */
  start_timestamp: number;
  /** Absent = open-ended, so rows pushed live keep showing however long the page stays open. */
  end_timestamp?: number;
  /** Admin only. */
  username: string;
  /** Admin only. */
  channel: string;
}

export interface LogListParams extends LogFilters {
  page: number;
  pageSize: number;
}

/** Admins read every user's rows; users only their own, without admin filters. */
function filterQuery(filters: LogFilters, admin: boolean) {
  const query: Record<string, string | number | undefined> = {
    type: filters.type || undefined,
    token_name: filters.token_name || undefined,
    model_name: filters.model_name || undefined,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
  };
  if (admin) {
    query.username = filters.username || undefined;
    query.channel = filters.channel || undefined;
  }
  return query;
}

/** The socket's `logs` topic invalidates `logQueries.all`. */
export const logQueries = {
  all: ['logs'] as const,
  list: (params: LogListParams, admin: boolean) =>
    queryOptions({
      queryKey: [...logQueries.all, 'list', admin, params] as const,
      queryFn: ({ signal }) =>
        http.get<LogPageDto>(
          admin ? '/api/log/' : '/api/log/self/',
          { ...filterQuery(params, admin), p: params.page, page_size: params.pageSize },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  stat: (filters: LogFilters, admin: boolean) =>
    queryOptions({
      queryKey: [...logQueries.all, 'stat', admin, filters] as const,
      queryFn: ({ signal }) =>
        http.get<LogStatDto>(
          admin ? '/api/log/stat' : '/api/log/self/stat',
          filterQuery(filters, admin),
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
};
