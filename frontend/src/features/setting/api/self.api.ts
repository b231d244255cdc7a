import { queryOptions } from '@tanstack/react-query';
import type { UpdateSelfRequest, UserDto, UserGroupDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** The signed-in user's own data; the socket's `self` topic invalidates `selfQueries.all`. */
export const selfQueries = {
  all: ['self'] as const,
  profile: () =>
    queryOptions({
      queryKey: [...selfQueries.all, 'profile'] as const,
      queryFn: ({ signal }) => http.get<UserDto>('/api/user/self', undefined, signal),
    }),
  affCode: () =>
    queryOptions({
      queryKey: [...selfQueries.all, 'aff'] as const,
      queryFn: ({ signal }) => http.get<string>('/api/user/aff', undefined, signal),
      staleTime: Infinity,
    }),
  /** The model names the user may call (every usable group's, once each). */
  models: () =>
    queryOptions({
      queryKey: [...selfQueries.all, 'models'] as const,
      queryFn: ({ signal }) => http.get<string[]>('/api/user/models', undefined, signal),
    }),
  /** Group code → {ratio, desc} of the groups the user may choose. */
  groups: () =>
    queryOptions({
      queryKey: [...selfQueries.all, 'groups'] as const,
      queryFn: ({ signal }) =>
        http.get<Record<string, UserGroupDto>>('/api/user/self/groups', undefined, signal),
    }),
};

export const selfApi = {
  update: (body: UpdateSelfRequest) => http.put<unknown>('/api/user/self', body),
  remove: () => http.delete<unknown>('/api/user/self'),
  generateAccessToken: () => http.get<string>('/api/user/token'),
  transferAffQuota: (quota: number) => http.post<unknown>('/api/user/aff_transfer', { quota }),
  /** Mails a code proving the address (the same endpoint registration uses). */
  sendEmailCode: (email: string, turnstile = '') =>
    http.get<unknown>('/api/verification', { email, turnstile }),
  bindEmail: (email: string, code: string) =>
    http.get<unknown>('/api/oauth/email/bind', { email, code }),
};
