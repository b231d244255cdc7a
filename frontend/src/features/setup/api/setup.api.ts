import { queryOptions } from '@tanstack/react-query';
import type { SetupRequest, SetupStatusDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

export const setupQueries = {
  all: ['setup'] as const,
  status: () =>
    queryOptions({
      queryKey: [...setupQueries.all],
      queryFn: () => http.get<SetupStatusDto>('/api/setup'),
    }),
};

export const setupApi = {
  /** new-api's first-run wizard: root's username and password, and the usage mode. */
  complete: (body: SetupRequest) => http.post<unknown>('/api/setup', body),
};
