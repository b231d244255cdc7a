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

const toSeconds = <T>(raw: string, fallback: T) => {
  const value = Number(raw);
  return raw && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
};

/**
 * The log table's page, page size (remembered) and filters, kept in the URL. Without
 * times in the URL the range starts at today's start (fixed at mount) and is open-ended; the form
 * shows now + 1 hour as its end until a search fixes it.
 */
export function useLogsTableParams() {
  const { page, pageSize, filters, update, paginate } = usePagedSearchParams(
    FILTERS,
    StorageKey.logsPageSize,
  );
  const [defaultStart] = useState(() => startOfDay(nowSeconds()));
  const params = useMemo<LogListParams>(
    () => ({
      page,
      pageSize,
      type: filters.type,
      token_name: filters.token_name,
      model_name: filters.model_name,
      username: filters.username,
      channel: filters.channel,
      start_timestamp: toSeconds(filters.start, defaultStart),
      end_timestamp: toSeconds(filters.end, undefined),
    }),
    [page, pageSize, filters, defaultStart],
  );
  return { params, update, paginate };
}
