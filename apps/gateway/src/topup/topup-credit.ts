import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  billingDecider,
  topUpReference,
  type QuotaGranted,
  type TopUpOrderPaid,
} from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import type { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/** What a paid order owes its user. */
export interface TopUpCredit {
  readonly tradeNo: string;
  readonly userId: number;
  readonly quota: number;
  /** Id of the TopUpOrderPaid event: the credit's causation. */
  readonly paidEventId: string;
}

/**
 * The credit that follows TopUpOrderPaid, on the user's billing stream. Its command id derives
 * from the trade no, so however often it runs (the callback, a retry, the start-up repair) the
 * order is credited once: a second run is refused as a duplicate event id and appends nothing.
 */
export function creditTopUp(store: StreamCommands, credit: TopUpCredit, meta: RequestMeta) {
  const reference = topUpReference(credit.tradeNo);
  return store.execute(
    `billing-${credit.userId}`,
    billingDecider,
    {
      type: 'GrantQuota',
      userId: credit.userId,
      amount: credit.quota,
      reason: 'topup',
      reference,
    },
    meta,
    { commandId: `credit:${reference}`, causationId: credit.paidEventId },
  );
}

export interface UnpaidTopUp extends TopUpCredit {
  /** The paying request: the repair's events keep it as their correlation. */
  readonly correlationId: string;
  readonly paidAt: Date;
}

/**
 * Paid orders whose credit the log does not show (yet): TopUpOrderPaid adds one, the QuotaGranted
 * naming the order removes it. What is left after the start-up replay is what a crash between the
 * two appends left uncredited; the start-up repair credits exactly those.
 */
@Injectable()
export class UncreditedTopUps implements HotCache {
  readonly name = 'uncredited-topups';
  readonly eventTypes = ['TopUpOrderPaid', 'QuotaGranted'];
  private readonly pending = new Map<string, UnpaidTopUp>();

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type === 'TopUpOrderPaid') {
        const d = event.data as TopUpOrderPaid['data'];
        const correlationId = event.metadata['correlationId'];
        this.pending.set(topUpReference(d.tradeNo), {
          tradeNo: d.tradeNo,
          userId: d.userId,
          quota: d.quota,
          paidEventId: event.id,
          correlationId: typeof correlationId === 'string' ? correlationId : event.id,
          paidAt: event.recordedAt,
        });
      } else {
        const d = event.data as QuotaGranted['data'];
        if (d.reason === 'topup' && d.reference) this.pending.delete(d.reference);
      }
    }
  }

  list(): UnpaidTopUp[] {
    return [...this.pending.values()];
  }
}
