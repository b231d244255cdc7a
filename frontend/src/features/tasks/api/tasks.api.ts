import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { MidjourneyRow, TaskRow } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** The drawing log's filters; times in unix seconds here, sent to the server in milliseconds. */
export interface MidjourneyFilters {
  /** Admin only. */
  channel_id: string;
  mj_id: string;
  start_timestamp: number;
  /** Absent = open-ended, so tasks submitted while the page is open keep showing. */
  end_timestamp?: number;
}

/** The task log's filters; times in unix seconds, as the server takes them. */
export interface TaskFilters {
  /** Admin only. */
  channel_id: string;
  task_id: string;
  /** '' = every status. */
  status: string;
  /** '' = every action. */
  action: string;
  start_timestamp: number;
  end_timestamp?: number;
}

/** 1-based like the URL; the server's `p` is 0-based. */
export interface Paged {
  page: number;
}

export type MidjourneyListParams = MidjourneyFilters & Paged;
export type TaskListParams = TaskFilters & Paged;

const channelOf = (raw: string, admin: boolean) =>
  admin && raw.trim() !== '' ? raw.trim() : undefined;

/** The socket's `tasks` topic invalidates `taskQueries.all` (throttled, see useLiveTasks). */
export const taskQueries = {
  all: ['tasks'] as const,
  /** Admins read every user's drawings (`/api/mj/`), users their own (`/api/mj/self`). */
  midjourney: (params: MidjourneyListParams, admin: boolean) =>
    queryOptions({
      queryKey: [...taskQueries.all, 'midjourney', admin, params] as const,
      queryFn: ({ signal }) =>
        http.get<MidjourneyRow[]>(
          admin ? '/api/mj/' : '/api/mj/self',
          {
            p: params.page - 1,
            channel_id: channelOf(params.channel_id, admin),
            mj_id: params.mj_id || undefined,
            start_timestamp: params.start_timestamp * 1000,
            end_timestamp:
              params.end_timestamp === undefined ? undefined : params.end_timestamp * 1000,
          },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  /** Admins read every user's tasks (`/api/task/`), users their own (`/api/task/self`). */
  task: (params: TaskListParams, admin: boolean) =>
    queryOptions({
      queryKey: [...taskQueries.all, 'task', admin, params] as const,
      queryFn: ({ signal }) =>
        http.get<TaskRow[]>(
          admin ? '/api/task/' : '/api/task/self',
          {
            p: params.page - 1,
            channel_id: channelOf(params.channel_id, admin),
            task_id: params.task_id || undefined,
            status: params.status || undefined,
            action: params.action || undefined,
            start_timestamp: params.start_timestamp,
            end_timestamp: params.end_timestamp,
          },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
};
