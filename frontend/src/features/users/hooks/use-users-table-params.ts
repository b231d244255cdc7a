import { useMemo } from 'react';
import { usePagedSearchParams } from '@/hooks/use-paged-search-params';
import { StorageKey } from '@/lib/storage';
import type { UserListParams } from '../api/users.api';

const FILTERS = ['keyword', 'group'] as const;

/** The user table's page, page size, keyword and group, kept in the URL. */
export function useUsersTableParams() {
  const { page, pageSize, filters, update, paginate } = usePagedSearchParams(
    FILTERS,
    StorageKey.usersPageSize,
  );
  const params = useMemo<UserListParams>(
    () => ({ page, pageSize, keyword: filters.keyword, group: filters.group }),
    [page, pageSize, filters],
  );
  return { params, update, paginate };
}
