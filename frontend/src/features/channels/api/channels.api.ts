import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ChannelDto,
  CopyChannelResultDto,
  CreateChannelRequest,
  FetchModelsRequest,
  KnownModelDto,
  UpdateChannelRequest,
} from '@tollgate/contracts';
import { http, requestEnvelope } from '@/lib/http';

export interface ChannelListParams {
  /** 1-based, as in the URL; the channel API itself counts pages from 0. */
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
  model: string;
  idSort: boolean;
}

function fetchChannels(params: ChannelListParams, signal: AbortSignal): Promise<ChannelDto[]> {
  const paging = { p: params.page - 1, page_size: params.pageSize, id_sort: params.idSort };
  // Any filter switches to the search endpoint; both answer a bare array of channels.
  if (params.keyword || params.group || params.model) {
    return http.get(
      '/api/channel/search',
      { ...paging, keyword: params.keyword, group: params.group, model: params.model },
      signal,
    );
  }
  return http.get('/api/channel/', paging, signal);
}

/** Admin channel queries; the socket's `channels` topic invalidates `channelQueries.all`. */
export const channelQueries = {
  all: ['channels'] as const,
  list: (params: ChannelListParams) =>
    queryOptions({
      queryKey: [...channelQueries.all, 'list', params] as const,
      queryFn: ({ signal }) => fetchChannels(params, signal),
      // The previous page stays on screen while the next one loads.
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...channelQueries.all, 'detail', id] as const,
      queryFn: ({ signal }) => http.get<ChannelDto>(`/api/channel/${id}`, undefined, signal),
      // The panel says "not found" itself, instead of the generic toast.
      meta: { silent: true },
      staleTime: 0,
    }),
  /** Every model the server knows (the form's "fill all models"). */
  knownModels: () =>
    queryOptions({
      queryKey: [...channelQueries.all, 'known-models'] as const,
      queryFn: ({ signal }) => http.get<KnownModelDto[]>('/api/channel/models', undefined, signal),
      staleTime: 60_000,
    }),
};

/** Midjourney Proxy (2), Midjourney Proxy Plus (5), Suno (36): the channels the poller asks. */
export const TASK_CHANNEL_TYPES: ReadonlySet<number> = new Set([2, 5, 36]);

/** One channel's task polling, as GET /api/task/poll-status answers it (admins only). */
export interface ChannelPollState {
  channel_id: number;
  open_tasks: number;
  failures: number;
  last_error: string;
  /** Unix milliseconds of the last successful poll (0 = none yet). */
  last_success_at: number;
  /** Unix milliseconds before which the channel is not asked again (backoff). */
  next_poll_at: number;
}

export function fetchTaskPollStatus(signal?: AbortSignal): Promise<ChannelPollState[]> {
  return http.get<ChannelPollState[]>('/api/task/poll-status', undefined, signal);
}

/** The task poller's state per channel; refreshed by its hook (interval and socket pushes). */
export const taskPollQueries = {
  all: ['task-poll-status'] as const,
  status: (enabled: boolean) =>
    queryOptions({
      queryKey: taskPollQueries.all,
      queryFn: ({ signal }) => fetchTaskPollStatus(signal),
      enabled,
      refetchInterval: 30_000,
      // A badge beside the status; a failed refresh is not worth a toast every 30 s.
      meta: { silent: true },
    }),
};

/** Model lists come as names, or as OpenAI model objects (what /v1/models answers). */
type ModelListAnswer = Array<string | { id: string }> | null | undefined;

function modelNames(answer: ModelListAnswer): string[] {
  const names = (answer ?? []).map((item) => (typeof item === 'string' ? item : item.id));
  return Array.from(new Set(names.filter(Boolean)));
}

/** Answers that carry their result beside `data` (new-api's shape for test and balance). */
async function topLevel<T>(path: string, field: string): Promise<{ value: T; message: string }> {
  const envelope = (await requestEnvelope<T>('GET', path)) as unknown as Record<string, unknown>;
  const value = (envelope[field] ?? envelope.data) as T;
  return { value, message: typeof envelope.message === 'string' ? envelope.message : '' };
}

export const channelsApi = {
  create: (body: CreateChannelRequest) => http.post<unknown>('/api/channel/', body),
  update: (body: UpdateChannelRequest) => http.put<unknown>('/api/channel/', body),
  remove: (id: number) => http.delete<unknown>(`/api/channel/${id}/`),
  removeDisabled: () => http.delete<number>('/api/channel/disabled'),
  removeMany: (ids: number[]) => http.post<number>('/api/channel/batch', { ids }),
  fix: () => http.post<number>('/api/channel/fix'),
  copy: (id: number) => http.post<CopyChannelResultDto>(`/api/channel/copy/${id}`),
  /** Seconds the test request took. */
  test: async (id: number, model?: string) => {
    const query = model ? `?model=${encodeURIComponent(model)}` : '';
    return (await topLevel<number>(`/api/channel/test/${id}${query}`, 'time')).value;
  },
  /** Starts testing every channel in the background; results arrive through the socket. */
  testAll: async () => (await requestEnvelope<unknown>('GET', '/api/channel/test')).message,
  updateBalance: async (id: number) =>
    (await topLevel<number>(`/api/channel/update_balance/${id}/`, 'balance')).value,
  updateAllBalances: async () =>
    (await requestEnvelope<unknown>('GET', '/api/channel/update_balance')).message,
  /** The provider's model list for a saved channel (its stored key). */
  fetchModels: async (id: number) =>
    modelNames(await http.get<ModelListAnswer>(`/api/channel/fetch_models/${id}`)),
  /** The provider's model list for the add form, asked by the server (no browser CORS). */
  fetchModelsFor: async (body: FetchModelsRequest) =>
    modelNames(await http.post<ModelListAnswer>('/api/channel/fetch_models', body)),
};
