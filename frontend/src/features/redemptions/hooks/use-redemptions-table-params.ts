import { useMemo } from 'react';
import { usePagedSearchParams } from '@/hooks/use-paged-search-params';
import { StorageKey } from '@/lib/storage';
import type { RedemptionListParams } from '../api/redemptions.api';

const FILTERS = ['keyword'] as const;

/** The code table's page, page size and keyword, kept in the URL. */
export function useRedemptionsTableParams() {
  const { page, pageSize, filters, update, paginate } = usePagedSearchParams(
    FILTERS,
    StorageKey.redemptionsPageSize,
  );
  const params = useMemo<RedemptionListParams>(
    () => ({ page, pageSize, keyword: filters.keyword }),
    [page, pageSize, filters],
  );
  return { params, update, paginate };
}
