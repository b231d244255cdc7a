import { Inject, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { appendOwedCredit } from '../../billing/owed-credits';
import { UnpaidRedemptions } from '../redemption-credit';

/** Start-up, after the hot caches replayed the log: credits codes a crash left redeemed but unpaid. */
export class PayUnpaidRedemptionsCommand extends Command<number> {}

/** With other processes on the same stores, leave their in-flight redeems alone this long. */
export const SHARED_STORE_GRACE_MS = 60_000;

/**
 * Pays what {@link UnpaidRedemptions} still lists once the log is replayed: a code whose
 * RedemptionRedeemed has no credit. The credit is the top-up's own (same derived command id), so
 * running this twice, or beside a top-up that did finish, credits nothing twice. On the embedded
 * store this process is alone (the DATA_DIR lock); with EventStoreDB another process may be between
 * its two appends, so only redeems older than a minute count — and the younger ones (a process
 * restarted within that minute left its own unpaid) are looked at again once they are old enough,
 * instead of waiting for some later start.
 */
@CommandHandler(PayUnpaidRedemptionsCommand)
export class PayUnpaidRedemptionsHandler
  implements ICommandHandler<PayUnpaidRedemptionsCommand>, OnApplicationShutdown
{
  private readonly logger = new Logger('RedemptionRepair');
  private lookAgain: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: StreamCommands,
    private readonly unpaid: UnpaidRedemptions,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(): Promise<number> {
    const grace = this.config.eventStoreUrl ? SHARED_STORE_GRACE_MS : 0;
    const now = Date.now();
    let paid = 0;
    let last: Position | null = null;
    let youngest: number | null = null;
    for (const credit of this.unpaid.list()) {
      const age = now - credit.owedSince.getTime();
      if (age < grace) {
        youngest = Math.min(youngest ?? age, age);
        continue;
      }
      const result = await appendOwedCredit(this.store, 'redemption', credit, {
        actor: SYSTEM_ACTOR,
        correlationId: credit.correlationId,
        lang: 'en',
      });
      last = result.position ?? last;
      if (result.events.length > 0) paid += 1;
    }
    await this.readYourWrites.waitFor(last);
    if (paid > 0) this.logger.warn(`Credited ${paid} redeemed code(s) a crash had left unpaid`);
    if (youngest !== null) this.scheduleLookAgain(grace - youngest);
    return paid;
  }

  onApplicationShutdown(): void {
    clearTimeout(this.lookAgain);
  }

  private scheduleLookAgain(inMs: number): void {
    clearTimeout(this.lookAgain);
    this.lookAgain = setTimeout(() => {
      this.lookAgain = undefined;
      this.execute().catch((error: unknown) =>
        this.logger.error(`paying unpaid redemptions failed: ${String(error)}`),
      );
    }, inMs + 1);
    // A pending look must not keep a stopping process alive.
    this.lookAgain.unref();
  }
}
