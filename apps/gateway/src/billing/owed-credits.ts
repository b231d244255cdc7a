import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Position, RecordedEvent } from '@tollgate/event-store';
import {
  billingDecider,
  SYSTEM_ACTOR,
  type GrantReason,
  type QuotaGranted,
  withFields,
} from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import type { ReadYourWrites } from '../infrastructure/read-your-writes';
import { sharedStoreGraceMs } from '../infrastructure/shared-store-grace';
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
    readonly reason: GrantReason,
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
      this.pending.set(
        debt.reference,
        withFields(debt, {
          causeEventId: event.id,
          correlationId: typeof correlationId === 'string' ? correlationId : event.id,
          owedSince: event.recordedAt,
        }),
      );
    }
  }

  list(): PendingCredit[] {
    return [...this.pending.values()];
  }
}

/**
 * The start-up repair, after the hot caches replayed the log: credits what a {@link PendingCredits}
 * still lists, a debt a crash left between its two appends. The credit is the request's own (same
 * derived command id), so running this twice, or beside a request that did finish, credits nothing
 * twice. On the embedded store this process is alone (the DATA_DIR lock); with EventStoreDB another
 * process may be between its two appends, so only debts older than a minute count — and the
 * younger ones (a process restarted within that minute left its own) are looked at again once they
 * are old enough, instead of waiting for some later start. A feature's command handler extends
 * this and only names its cache and its log line.
 */
export abstract class OwedCreditRepair implements OnApplicationShutdown {
  private readonly logger: Logger;
  private lookAgain: NodeJS.Timeout | undefined;

  protected constructor(
    loggerName: string,
    private readonly pending: PendingCredits,
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
    private readonly config: AppConfig,
    /** The warning when some were credited: `Credited ${count} …`. */
    private readonly creditedText: (count: number) => string,
  ) {
    this.logger = new Logger(loggerName);
  }

  async execute(): Promise<number> {
    const grace = sharedStoreGraceMs(this.config);
    const now = Date.now();
    let credited = 0;
    let last: Position | null = null;
    let youngest: number | null = null;
    for (const credit of this.pending.list()) {
      const age = now - credit.owedSince.getTime();
      if (age < grace) {
        youngest = Math.min(youngest ?? age, age);
        continue;
      }
      const result = await appendOwedCredit(this.store, this.pending.reason, credit, {
        actor: SYSTEM_ACTOR,
        correlationId: credit.correlationId,
        lang: 'en',
      });
      last = result.position ?? last;
      if (result.events.length > 0) credited += 1;
    }
    await this.readYourWrites.waitFor(last);
    if (credited > 0) this.logger.warn(this.creditedText(credited));
    if (youngest !== null) this.scheduleLookAgain(grace - youngest);
    return credited;
  }

  onApplicationShutdown(): void {
    clearTimeout(this.lookAgain);
  }

  private scheduleLookAgain(inMs: number): void {
    clearTimeout(this.lookAgain);
    this.lookAgain = setTimeout(() => {
      this.lookAgain = undefined;
      this.execute().catch((error: unknown) =>
        this.logger.error(`crediting ${this.pending.name} failed: ${String(error)}`),
      );
    }, inMs + 1);
    // A pending look must not keep a stopping process alive.
    this.lookAgain.unref();
  }
}
