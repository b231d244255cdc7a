import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { i18n } from './i18n';
import { notifyError, notifyRequestError, notifySuccess } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    /** errorMessage: an i18n key shown instead of the generic mapping; silent: no toast. */
    queryMeta: { errorMessage?: ParseKeys; silent?: boolean };
    /**
     * silent: no error toast. success: the toast once it worked (a key without values; a message
     * with values is the hook's own onSuccess). invalidates: what the change makes stale, refetched
     * once the call settles — after a failure too, so a refused value does not linger on screen.
     */
    mutationMeta: { silent?: boolean; success?: ParseKeys; invalidates?: QueryKey };
  }
}

/**
 * One place turns every failed call into the toast the error catalogue asks for, and every
 * mutation's `meta` into its success toast and the refetch of what it changed.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        if (query.meta?.errorMessage) return notifyError(i18n.t(query.meta.errorMessage));
        notifyRequestError(error);
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        if (mutation.meta?.success) notifySuccess(i18n.t(mutation.meta.success));
      },
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silent) notifyRequestError(error);
      },
      // Awaited: the mutation resolves (and the caller closes its drawer) on fresh data.
      onSettled: (_data, _error, _variables, _context, mutation) =>
        mutation.meta?.invalidates
          ? client.invalidateQueries({ queryKey: mutation.meta.invalidates })
          : undefined,
    }),
    defaultOptions: {
      // A business failure will not fix itself on retry; the user retries on purpose.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
  return client;
}
