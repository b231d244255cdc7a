import type { TopUpOrderDto } from '@tollgate/contracts';

export const TOPUP_ORDERS = 'topup_orders';

/** An order in the read store: the wire row keyed by its trade no. */
export type TopUpOrderDocument = TopUpOrderDto & { _id: string };

export function toTopUpOrderDto(doc: TopUpOrderDocument): TopUpOrderDto {
  const { _id: _i, ...rest } = doc;
  return rest;
}
