import { topUpOrderDecider, topUpReference, TRADE_NO_PATTERN, DomainError } from '@tollgate/domain';
import type { TopUpOrderCommand } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { randomUUID } from 'node:crypto';
import { derivedId } from '../../infrastructure/derived-id';
import type { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { appendOwedCredit } from '../../billing/owed-credits';

/** What a confirmation or a manual completion did. */
export interface TopUpSettlement {
  readonly tradeNo: string;
  readonly userId: number;
  readonly quota: number;
  /** True when this call recorded the payment (and credited it); false for a replay. */
  readonly credited: boolean;
}

/**
 * Records the payment on the order's stream, then credits the user. The order stream decides: of
 * any number of concurrent or repeated calls one appends TopUpOrderPaid, the others decide nothing
 * and credit nothing. The credit's own command id (derived from the trade no) makes even a retried
 * credit a no-op.
 */
export async function settleTopUpOrder(
  store: StreamCommands,
  tradeNo: string,
  command: Extract<TopUpOrderCommand, { type: 'ConfirmTopUpPayment' | 'CompleteTopUpOrder' }>,
  meta: RequestMeta,
): Promise<{ settlement: TopUpSettlement; position: Position | null }> {
  if (!TRADE_NO_PATTERN.test(tradeNo)) throw new DomainError('topup.order_not_found');
  const commandId = randomUUID();
  const paid = await store.execute(`topup-${tradeNo}`, topUpOrderDecider, command, meta, {
    commandId,
  });
  const event = paid.events[0];
  const base = { tradeNo, userId: paid.state.userId, quota: paid.state.quota };
  if (!event || event.type !== 'TopUpOrderPaid')
    return { settlement: { ...base, credited: false }, position: null };
  const credited = await appendOwedCredit(
    store,
    'topup',
    {
      reference: topUpReference(tradeNo),
      userId: event.data.userId,
      quota: event.data.quota,
      causeEventId: derivedId(commandId, 0),
    },
    meta,
  );
  return {
    settlement: { ...base, credited: true },
    position: credited.position ?? paid.position,
  };
}
