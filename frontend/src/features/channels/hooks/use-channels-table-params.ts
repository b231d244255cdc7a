import { useCallback, useMemo, useState } from 'react';
import { usePagedSearchParams } from '@/hooks/use-paged-search-params';
import { readString, StorageKey, writeString } from '@/lib/storage';
import type { ChannelListParams } from '../api/channels.api';

const FILTERS = ['keyword', 'group', 'model'] as const;

/**
 * The channel table's page, page size and filters live in the URL; the page size and the ID-sort
 * switch are also remembered locally.
 */
export function useChannelsTableParams() {
  const { page, pageSize, filters, update, paginate } = usePagedSearchParams(
    FILTERS,
    StorageKey.channelsPageSize,
  );
  const [idSort, setIdSortState] = useState(() => readString(StorageKey.channelsIdSort) === 'true');
  const setIdSort = useCallback((value: boolean) => {
    writeString(StorageKey.channelsIdSort, String(value));
    setIdSortState(value);
  }, []);
  const params = useMemo<ChannelListParams>(
    () => ({
      page,
      pageSize,
      keyword: filters.keyword,
      group: filters.group,
      model: filters.model,
      idSort,
    }),
    [page, pageSize, filters, idSort],
  );
  return { params, update, paginate, setIdSort };
}
