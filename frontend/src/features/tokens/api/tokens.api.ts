import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  CreateTokenRequest,
  CreateTokensResultDto,
  TokenDto,
  UpdateTokenRequest,
  UpdateTokenStatusRequest,
} from '@tollgate/contracts';
import { http } from '@/lib/http';

export interface TokenListParams {
  /** 1-based, as in the URL; the API counts from 0. */
  page: number;
  pageSize: number;
  keyword: string;
  token: string;
}

function fetchTokens(params: TokenListParams, signal: AbortSignal): Promise<TokenDto[]> {
  const paging = { p: params.page - 1, size: params.pageSize };
  // With every search field empty the plain list is loaded instead.
  if (params.keyword || params.token) {
    return http.get(
      '/api/token/search',
      { ...paging, keyword: params.keyword, token: params.token },
      signal,
    );
  }
  return http.get('/api/token/', paging, signal);
}

/** The signed-in user's tokens; the socket's `tokens` topic invalidates `tokenQueries.all`. */
export const tokenQueries = {
  all: ['tokens'] as const,
  list: (params: TokenListParams) =>
    queryOptions({
      queryKey: [...tokenQueries.all, 'list', params] as const,
      queryFn: ({ signal }) => fetchTokens(params, signal),
      placeholderData: keepPreviousData,
    }),
};

export const tokensApi = {
  create: (body: CreateTokenRequest) => http.post<CreateTokensResultDto>('/api/token/', body),
  update: (body: UpdateTokenRequest) => http.put<TokenDto>('/api/token/', body),
  setStatus: (body: UpdateTokenStatusRequest) =>
    http.put<TokenDto>('/api/token/', body, { status_only: true }),
  remove: (id: number) => http.delete<unknown>(`/api/token/${id}/`),
};
