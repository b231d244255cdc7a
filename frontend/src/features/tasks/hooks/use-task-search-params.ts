import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A task list's page (1-based, `p`) and filters kept in the URL, so a reload or a shared link shows
 * the same rows. Unlike usePagedSearchParams there is no page size: the server sends 10 rows.
 */
export function useTaskSearchParams<F extends string>(filterNames: readonly F[]) {
  const [params, setParams] = useSearchParams();

  const page = Math.max(1, Math.floor(Number(params.get('p')) || 1));
  const raw = useMemo(
    () =>
      Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ''])) as Record<
        F,
        string
      >,
    [params, filterNames],
  );

  const update = useCallback(
    (patch: { page?: number; filters?: Partial<Record<F, string>> }) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (patch.page !== undefined) {
          if (patch.page <= 1) next.delete('p');
          else next.set('p', String(patch.page));
        }
        for (const [name, value] of Object.entries(patch.filters ?? {})) {
          if (value) next.set(name, value as string);
          else next.delete(name);
        }
        return next;
      }),
    [setParams],
  );

  return { page, raw, update };
}

/** A time filter from the URL (unix seconds), or `fallback` when absent or not a time. */
export const secondsParam = <T>(raw: string, fallback: T) => {
  const value = Number(raw);
  return raw && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
};
