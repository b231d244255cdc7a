import { useMemo, useState } from 'react';
import { usePagedSearchParams } from '@/hooks/use-paged-search-params';
import { StorageKey } from '@/lib/storage';
import { nowSeconds, startOfDay } from '@/utils/date-time';
import type { LogListParams } from '../api/logs.api';

const FILTERS = [
  'type',
  'token_name',
  'model_name',
  'start',
  'end',
  'username',
  'channel',
] as const;
export type LogFilterName = (typeof FILTERS)[number];

const toSeconds = (raw: string, fallback: number) => {
  const value = Number(raw);
  return raw && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
};

/**
 * The log table's page, page size (remembered, spec 001 §9) and filters, kept in the URL. Without
 * times in the URL the range is today's start to an hour from now (spec 001 §9), fixed at mount.
 */
export function useLogsTableParams() {
  const { page, pageSize, filters, update } = usePagedSearchParams(
    FILTERS,
    StorageKey.logsPageSize,
  );
  const [defaults] = useState(() => {
    const now = nowSeconds();
    return { start: startOfDay(now), end: now + 3600 };
  });
  const params = useMemo<LogListParams>(
    () => ({
      page,
      pageSize,
      type: filters.type,
      token_name: filters.token_name,
      model_name: filters.model_name,
      username: filters.username,
      channel: filters.channel,
      start_timestamp: toSeconds(filters.start, defaults.start),
      end_timestamp: toSeconds(filters.end, defaults.end),
    }),
    [page, pageSize, filters, defaults],
  );
  return { params, update };
}
