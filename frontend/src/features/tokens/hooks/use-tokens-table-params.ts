import { useMemo } from 'react';
import { usePagedSearchParams } from '@/hooks/use-paged-search-params';
import { StorageKey } from '@/lib/storage';
import type { TokenListParams } from '../api/tokens.api';

const FILTERS = ['keyword', 'token'] as const;

/** The token table's page, page size and search fields, kept in the URL. */
export function useTokensTableParams() {
  const { page, pageSize, filters, update, paginate } = usePagedSearchParams(
    FILTERS,
    StorageKey.tokensPageSize,
  );
  const params = useMemo<TokenListParams>(
    () => ({ page, pageSize, keyword: filters.keyword, token: filters.token }),
    [page, pageSize, filters],
  );
  return { params, update, paginate };
}
