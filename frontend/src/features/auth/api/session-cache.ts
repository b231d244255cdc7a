import type { QueryClient } from '@tanstack/react-query';
import { statusQueries } from '@/features/status';

/** Drops everything cached for the previous user; only the public status survives. */
export function dropUserQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== statusQueries.all[0] });
}
