import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { isAdmin } from '@tollgate/contracts';
import { useSessionUser } from '@/features/auth';
import type { Paged } from '../api/tasks.api';
import { useLiveTasks } from './use-live-tasks';

/** A task log's URL state, as useMidjourneyTableParams / useTaskTableParams give it. */
interface TaskTableParams<P extends Paged, F extends string> {
  params: P;
  update: (patch: { page?: number; filters?: Partial<Record<F, string>> }) => void;
}

/** What a task log's table and pager read. */
export interface TaskLog<R> {
  /** Admins read every user's rows and see the channel. */
  admin: boolean;
  page: number;
  list: { data: R[] | undefined; isFetching: boolean; isPlaceholderData: boolean };
  onPage: (page: number) => void;
}

/**
 * The wiring both task logs share: who reads (admin or not), the URL's page of rows, refetched
 * whenever the server reports a task change, and the search / page-change actions.
 */
export function useTaskLog<P extends Paged, F extends string, R, K extends QueryKey>(
  { params, update }: TaskTableParams<P, F>,
  queryFor: (params: P, admin: boolean) => UseQueryOptions<R[], Error, R[], K>,
) {
  const role = useSessionUser()?.role;
  const admin = role !== undefined && isAdmin(role);
  const list = useQuery(queryFor(params, admin));
  useLiveTasks();

  return {
    admin,
    params,
    page: params.page,
    list,
    /** A new search starts again at page 1. */
    search: (filters: Partial<Record<F, string>>) => update({ page: 1, filters }),
    onPage: (page: number) => update({ page }),
  };
}
