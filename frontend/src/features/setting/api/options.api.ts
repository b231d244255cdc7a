import { queryOptions } from '@tanstack/react-query';
import type { OptionDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** GET /api/option/ (root only; secret keys are never in the answer), as key → value. */
export const optionQueries = {
  // The socket's `options` topic invalidates this key (app/live-updates.ts).
  all: ['options'] as const,
  values: () =>
    queryOptions({
      queryKey: [...optionQueries.all, 'values'] as const,
      queryFn: async ({ signal }) => {
        const list = await http.get<OptionDto[]>('/api/option/', undefined, signal);
        return Object.fromEntries(list.map(({ key, value }) => [key, value]));
      },
    }),
  /** GET /api/channel/models_enabled: every model an enabled channel serves. */
  enabledModels: () =>
    queryOptions({
      queryKey: ['channels', 'models-enabled'] as const,
      queryFn: ({ signal }) => http.get<string[]>('/api/channel/models_enabled', undefined, signal),
    }),
};

export const optionsApi = {
  update: (key: string, value: string) => http.put<unknown>('/api/option/', { key, value }),
  resetModelRatios: () => http.post<unknown>('/api/option/rest_model_ratio'),
  /** Clears the log rows before `seconds`; answers how many. */
  clearLogs: (seconds: number) => http.delete<number>(`/api/log/?target_timestamp=${seconds}`),
};
