import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  CreateRedemptionRequest,
  PageOf,
  RedemptionDto,
  UpdateRedemptionRequest,
  UpdateRedemptionStatusRequest,
} from '@tollgate/contracts';
import { http } from '@/lib/http';

export interface RedemptionListParams {
  page: number;
  pageSize: number;
  keyword: string;
}

function fetchRedemptions(
  params: RedemptionListParams,
  signal: AbortSignal,
): Promise<PageOf<RedemptionDto>> {
  const paging = { p: params.page, page_size: params.pageSize };
  if (params.keyword) {
    return http.get('/api/redemption/search', { ...paging, keyword: params.keyword }, signal);
  }
  return http.get('/api/redemption/', paging, signal);
}

/** Admin redemption codes; the socket's `redemptions` topic invalidates `redemptionQueries.all`. */
export const redemptionQueries = {
  all: ['redemptions'] as const,
  list: (params: RedemptionListParams) =>
    queryOptions({
      queryKey: [...redemptionQueries.all, 'list', params] as const,
      queryFn: ({ signal }) => fetchRedemptions(params, signal),
      placeholderData: keepPreviousData,
    }),
};

export const redemptionsApi = {
  /** Answers the generated keys. */
  create: (body: CreateRedemptionRequest) => http.post<string[]>('/api/redemption/', body),
  update: (body: UpdateRedemptionRequest) => http.put<RedemptionDto>('/api/redemption/', body),
  setStatus: (body: UpdateRedemptionStatusRequest) =>
    http.put<RedemptionDto>('/api/redemption/', body, { status_only: true }),
  remove: (id: number) => http.delete<unknown>(`/api/redemption/${id}/`),
};
