import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { i18n } from './i18n';
import { notifyError, notifyRequestError } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    /** errorMessage: an i18n key shown instead of the generic mapping; silent: no toast. */
    queryMeta: { errorMessage?: ParseKeys; silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** One place turns every failed call into the toast the error catalogue asks for. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        if (query.meta?.errorMessage) return notifyError(i18n.t(query.meta.errorMessage));
        notifyRequestError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silent) notifyRequestError(error);
      },
    }),
    defaultOptions: {
      // A business failure will not fix itself on retry; the user retries on purpose.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
