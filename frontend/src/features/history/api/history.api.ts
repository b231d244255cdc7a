import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  HistoryActorDto,
  HistoryChangeDto,
  HistoryItemDto,
  PageOf,
  TokenQuotaAtDto,
  UserQuotaAtDto,
} from '@tollgate/contracts';
import { http } from '@/lib/http';

// Every history route is named here and nowhere else: a renamed route is one edit.

export type HistoryItem = HistoryItemDto;
export type HistoryChange = HistoryChangeDto;
export type HistoryActor = HistoryActorDto;

/** Subjects with a history drawer; `self` is the signed-in user's own account. */
export type HistorySubject =
  | { kind: 'user'; id: number | 'self' }
  | { kind: 'token'; id: number }
  | { kind: 'channel'; id: number }
  | { kind: 'redemption'; id: number }
  | { kind: 'options' };

export type QuotaSubject = { kind: 'user'; id: number | 'self' } | { kind: 'token'; id: number };

export interface ActorHistoryParams {
  actorId: number;
  /** Unix seconds; absent = open-ended. */
  start?: number;
  end?: number;
  page: number;
  pageSize: number;
}

export const HISTORY_PAGE_SIZE = 10;

function historyPath(subject: HistorySubject): string {
  switch (subject.kind) {
    case 'options':
      return '/api/option/history';
    case 'user':
      return `/api/user/${subject.id}/history`;
    default:
      return `/api/${subject.kind}/${subject.id}/history`;
  }
}

function quotaAtPath(subject: QuotaSubject): string {
  return `/api/${subject.kind}/${subject.id}/quota_at`;
}

/** Who-did-what: every change one admin made. */
const ACTOR_HISTORY_PATH = '/api/history';

/**
 * History reads. Pages are 1-based (`p`), like the other `{items, total, page, page_size}` lists.
 * History only grows: a drawer refetches when opened again and on its subject's pushes
 * (subject-history.tsx).
 */
export const historyQueries = {
  all: ['history'] as const,
  list: (subject: HistorySubject, page: number, pageSize = HISTORY_PAGE_SIZE) =>
    queryOptions({
      queryKey: [...historyQueries.all, 'list', subject, page, pageSize] as const,
      queryFn: ({ signal }) =>
        http.get<PageOf<HistoryItem>>(
          historyPath(subject),
          { p: page, page_size: pageSize },
          signal,
        ),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  /** A user's balance at an instant, with the balance changes that led there (newest first). */
  userQuotaAt: (id: number | 'self', timestamp: number) =>
    queryOptions({
      queryKey: [...historyQueries.all, 'quota-at', 'user', id, timestamp] as const,
      queryFn: ({ signal }) =>
        http.get<UserQuotaAtDto>(
          quotaAtPath({ kind: 'user', id }),
          { timestamp, p: 1, page_size: HISTORY_PAGE_SIZE },
          signal,
        ),
    }),
  tokenQuotaAt: (id: number, timestamp: number) =>
    queryOptions({
      queryKey: [...historyQueries.all, 'quota-at', 'token', id, timestamp] as const,
      queryFn: ({ signal }) =>
        http.get<TokenQuotaAtDto>(quotaAtPath({ kind: 'token', id }), { timestamp }, signal),
    }),
  byActor: (params: ActorHistoryParams) =>
    queryOptions({
      queryKey: [...historyQueries.all, 'actor', params] as const,
      queryFn: ({ signal }) =>
        http.get<PageOf<HistoryItem>>(
          ACTOR_HISTORY_PATH,
          {
            actor_id: params.actorId,
            start_timestamp: params.start,
            end_timestamp: params.end,
            p: params.page,
            page_size: params.pageSize,
          },
          signal,
        ),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
};
