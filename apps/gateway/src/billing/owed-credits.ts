import type { RecordedEvent } from '@tollgate/event-store';
import { billingDecider, type GrantReason, type QuotaGranted } from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import type { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/**
 * A credit one stream owes to a user's billing stream: a redeemed code (`redemption-<id>`), a paid
 * order (`topup-<tradeNo>`). Two appends on two streams, so a crash can fall between them; the
 * pieces here make the second one happen exactly once.
 */
export interface OwedCredit {
  /** The owing stream, named in the credit's `reference`. */
  readonly reference: string;
  readonly userId: number;
  readonly quota: number;
  /** Id of the event that created the debt (RedemptionRedeemed, TopUpOrderPaid): the causation. */
  readonly causeEventId: string;
}

/**
 * Appends the credit. Its command id derives from the reference, so however often it runs (the
 * request itself, a retry, the start-up repair) the user is credited once: a second run is refused
 * as a duplicate event id and appends nothing.
 */
export function appendOwedCredit(
  store: StreamCommands,
  reason: GrantReason,
  credit: OwedCredit,
  meta: RequestMeta,
) {
  return store.execute(
    `billing-${credit.userId}`,
    billingDecider,
    {
      type: 'GrantQuota',
      userId: credit.userId,
      amount: credit.quota,
      reason,
      reference: credit.reference,
    },
    meta,
    { commandId: `credit:${credit.reference}`, causationId: credit.causeEventId },
  );
}

export interface PendingCredit extends OwedCredit {
  /** The request that created the debt: the repair's events keep it as their correlation. */
  readonly correlationId: string;
  readonly owedSince: Date;
}

/**
 * Debts whose credit the log does not show (yet): the cause event adds one, the QuotaGranted
 * naming its reference removes it. Normally it holds at most the requests in flight; what is left
 * after the start-up replay is what a crash between the two appends left, and the start-up repair
 * credits exactly those — no scan, the replay the hot caches do anyway finds them.
 */
export abstract class PendingCredits implements HotCache {
  abstract readonly name: string;
  readonly eventTypes: readonly string[];
  private readonly pending = new Map<string, PendingCredit>();

  protected constructor(
    causeType: string,
    private readonly reason: GrantReason,
    /** The debt a cause event records, without its causation. */
    private readonly debtOf: (data: Record<string, unknown>) => Omit<OwedCredit, 'causeEventId'>,
  ) {
    this.eventTypes = [causeType, 'QuotaGranted'];
  }

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type === 'QuotaGranted') {
        const d = event.data as QuotaGranted['data'];
        if (d.reason === this.reason && d.reference) this.pending.delete(d.reference);
        continue;
      }
      const debt = this.debtOf(event.data as Record<string, unknown>);
      const correlationId = event.metadata['correlationId'];
      this.pending.set(debt.reference, {
        ...debt,
        causeEventId: event.id,
        correlationId: typeof correlationId === 'string' ? correlationId : event.id,
        owedSince: event.recordedAt,
      });
    }
  }

  list(): PendingCredit[] {
    return [...this.pending.values()];
  }
}
