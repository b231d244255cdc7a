import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { topUpQueries } from '../api/wallet.api';

/** Typed filters are sent once they stop changing for this long. */
const FILTER_DEBOUNCE_MS = 300;

/**
 * The orders list: its page and, for an admin, the user id, keyword and status filters. Changing a
 * filter or the page size goes back to page 1.
 */
export function useTopUpOrders(admin: boolean) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [userId, setUserId] = useState('');
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState('');
  const [settled] = useDebouncedValue(
    { userId: userId.trim(), keyword: keyword.trim() },
    FILTER_DEBOUNCE_MS,
  );
  const orders = useQuery(
    topUpQueries.orders(
      { page, pageSize, userId: settled.userId, keyword: settled.keyword, status },
      admin,
    ),
  );
  const firstPageWith =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return {
    rows: orders.data?.items ?? [],
    total: orders.data?.total ?? 0,
    loaded: !orders.isPending,
    paging: { page, pageSize, setPage, setPageSize: firstPageWith(setPageSize) },
    filters: {
      userId,
      keyword,
      status,
      setUserId: firstPageWith(setUserId),
      setKeyword: firstPageWith(setKeyword),
      setStatus: firstPageWith(setStatus),
    },
  };
}
