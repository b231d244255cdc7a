import { queryOptions } from '@tanstack/react-query';
import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** The chat pages read the first 100 tokens (page 0) and keep the enabled ones' keys. */
async function fetchEnabledKeys(signal: AbortSignal): Promise<string[]> {
  const tokens = await http.get<TokenDto[]>('/api/token/', { p: 0, size: 100 }, signal);
  return tokens.filter((token) => token.status === TokenStatus.Enabled).map((token) => token.key);
}

export const chatQueries = {
  enabledKeys: () =>
    queryOptions({
      // Under `tokens` so the token socket topic refreshes it.
      queryKey: ['tokens', 'chat-keys'] as const,
      queryFn: ({ signal }) => fetchEnabledKeys(signal),
      retry: false,
      meta: { silent: true },
    }),
};
