import { queryOptions } from '@tanstack/react-query';
import type { PricingResponse } from '@tollgate/contracts';
import { requestEnvelope } from '@/lib/http';

export type Pricing = Pick<PricingResponse, 'data' | 'group_ratio' | 'usable_group'>;

async function fetchPricing(signal: AbortSignal): Promise<Pricing> {
  // The groups come beside `data` (one-api's and new-api's shape): the whole envelope is read.
  const envelope = (await requestEnvelope('GET', '/api/pricing', { signal })) as Partial<Pricing>;
  return {
    data: envelope.data ?? [],
    group_ratio: envelope.group_ratio ?? {},
    usable_group: envelope.usable_group ?? {},
  };
}

/** GET /api/pricing; keyed by the signed-in user, whose groups decide the rows. */
export const pricingQueries = {
  all: ['pricing'] as const,
  current: (userId: number | null) =>
    queryOptions({
      queryKey: [...pricingQueries.all, userId] as const,
      queryFn: ({ signal }) => fetchPricing(signal),
    }),
};
