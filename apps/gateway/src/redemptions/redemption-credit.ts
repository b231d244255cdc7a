import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import { billingDecider, type QuotaGranted, type RedemptionRedeemed } from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import type { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/** What a redeemed code owes its redeemer. */
export interface RedemptionCredit {
  readonly redemptionId: number;
  readonly userId: number;
  readonly quota: number;
  /** Id of the RedemptionRedeemed event: the credit's causation. */
  readonly redeemedEventId: string;
}

const reference = (redemptionId: number) => `redemption-${redemptionId}`;

/**
 * The credit that follows a redemption, on the redeemer's billing stream. Its command id derives
 * from the code, so however often it runs (the top-up, a retry, the start-up repair) the code is
 * credited once: a second run is refused as a duplicate event id and appends nothing.
 */
export function creditRedemption(
  store: StreamCommands,
  credit: RedemptionCredit,
  meta: RequestMeta,
) {
  return store.execute(
    `billing-${credit.userId}`,
    billingDecider,
    {
      type: 'GrantQuota',
      userId: credit.userId,
      amount: credit.quota,
      reason: 'redemption',
      reference: reference(credit.redemptionId),
    },
    meta,
    { commandId: `credit:${reference(credit.redemptionId)}`, causationId: credit.redeemedEventId },
  );
}

export interface UnpaidRedemption extends RedemptionCredit {
  /** The redeeming request: the repair's events keep it as their correlation. */
  readonly correlationId: string;
  readonly redeemedAt: Date;
}

/**
 * Redeemed codes whose credit the log does not show (yet): a RedemptionRedeemed adds one, the
 * QuotaGranted naming that code removes it. Normally it holds at most the redeems in flight; what
 * is left after the start-up replay is what a crash between the two appends left unpaid, and the
 * start-up repair pays exactly those — no scan of the codes, the replay the caches do anyway finds
 * them.
 */
@Injectable()
export class UnpaidRedemptions implements HotCache {
  readonly name = 'unpaid-redemptions';
  readonly eventTypes = ['RedemptionRedeemed', 'QuotaGranted'];
  private readonly unpaid = new Map<string, UnpaidRedemption>();

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type === 'RedemptionRedeemed') {
        const d = event.data as RedemptionRedeemed['data'];
        const correlationId = event.metadata['correlationId'];
        this.unpaid.set(reference(d.redemptionId), {
          redemptionId: d.redemptionId,
          userId: d.userId,
          quota: d.quota,
          redeemedEventId: event.id,
          correlationId: typeof correlationId === 'string' ? correlationId : event.id,
          redeemedAt: event.recordedAt,
        });
      } else {
        const d = event.data as QuotaGranted['data'];
        if (d.reason === 'redemption' && d.reference) this.unpaid.delete(d.reference);
      }
    }
  }

  list(): UnpaidRedemption[] {
    return [...this.unpaid.values()];
  }
}
