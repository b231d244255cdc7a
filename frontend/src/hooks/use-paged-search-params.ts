import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@tollgate/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readString, writeString, type StorageKeyValue } from '@/lib/storage';

export interface PagedParams<F extends string> {
  /** 1-based page. */
  page: number;
  pageSize: number;
  filters: Record<F, string>;
}

const isPageSize = (value: number) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(value);

function parsePageSize(raw: string | null): number | null {
  const value = Number(raw);
  return raw !== null && isPageSize(value) ? value : null;
}

/**
 * A server-paged table's state lives in the URL (`p`, `size` and the filters), so a reload or a
 * shared link shows the same page; the page size is also remembered in localStorage.
 */
export function usePagedSearchParams<F extends string>(
  filterNames: readonly F[],
  pageSizeKey: StorageKeyValue,
) {
  const [params, setParams] = useSearchParams();

  const state = useMemo<PagedParams<F>>(() => {
    const page = Math.max(1, Math.floor(Number(params.get('p')) || 1));
    const pageSize =
      parsePageSize(params.get('size')) ??
      parsePageSize(readString(pageSizeKey)) ??
      DEFAULT_PAGE_SIZE;
    const filters = Object.fromEntries(
      filterNames.map((name) => [name, params.get(name) ?? '']),
    ) as Record<F, string>;
    return { page, pageSize, filters };
  }, [params, filterNames, pageSizeKey]);

  const update = useCallback(
    (patch: { page?: number; pageSize?: number; filters?: Partial<Record<F, string>> }) => {
      if (patch.pageSize !== undefined) writeString(pageSizeKey, String(patch.pageSize));
      setParams((current) => {
        const next = new URLSearchParams(current);
        const set = (key: string, value: string | number | undefined, empty: string | number) => {
          if (value === undefined) return;
          if (value === empty || value === '') next.delete(key);
          else next.set(key, String(value));
        };
        set('p', patch.page, 1);
        set('size', patch.pageSize, -1);
        for (const [name, value] of Object.entries(patch.filters ?? {})) {
          set(name, value as string | undefined, '');
        }
        return next;
      });
    },
    [setParams, pageSizeKey],
  );

  /** The pager's move: a new page size starts again at page 1. */
  const paginate = useCallback(
    (next: { page: number; pageSize: number }) =>
      update(
        next.pageSize !== state.pageSize
          ? { page: 1, pageSize: next.pageSize }
          : { page: next.page },
      ),
    [update, state.pageSize],
  );

  return { ...state, update, paginate };
}
