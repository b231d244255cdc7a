import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  CreateUserRequest,
  ManageUserRequest,
  ManageUserResultDto,
  PageOf,
  UpdateUserRequest,
  UserDto,
} from '@tollgate/contracts';
import { http } from '@/lib/http';

export interface UserListParams {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

function fetchUsers(params: UserListParams, signal: AbortSignal): Promise<PageOf<UserDto>> {
  const paging = { p: params.page, page_size: params.pageSize };
  // Any filter switches to the search endpoint; both answer the same paged shape.
  if (params.keyword || params.group) {
    return http.get(
      '/api/user/search',
      { ...paging, keyword: params.keyword, group: params.group },
      signal,
    );
  }
  return http.get('/api/user/', paging, signal);
}

/** Admin user queries; the socket's `users` topic invalidates `userQueries.all`. */
export const userQueries = {
  all: ['users'] as const,
  list: (params: UserListParams) =>
    queryOptions({
      queryKey: [...userQueries.all, 'list', params] as const,
      queryFn: ({ signal }) => fetchUsers(params, signal),
      // The previous page stays on screen while the next one loads.
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...userQueries.all, 'detail', id] as const,
      queryFn: ({ signal }) => http.get<UserDto>(`/api/user/${id}`, undefined, signal),
    }),
};

/** All group names (GET /api/group/); they come from the GroupRatio option. */
export const groupQueries = {
  all: ['groups'] as const,
  names: () =>
    queryOptions({
      queryKey: [...groupQueries.all] as const,
      queryFn: ({ signal }) => http.get<string[]>('/api/group/', undefined, signal),
      staleTime: 60_000,
    }),
};

export const usersApi = {
  create: (body: CreateUserRequest) => http.post<unknown>('/api/user/', body),
  update: (body: UpdateUserRequest) => http.put<unknown>('/api/user/', body),
  manage: (body: ManageUserRequest) => http.post<ManageUserResultDto>('/api/user/manage', body),
};
