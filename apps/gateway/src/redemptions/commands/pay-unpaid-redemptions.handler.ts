import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { UnpaidRedemptions, creditRedemption } from '../redemption-credit';

/** Start-up, after the hot caches replayed the log: credits codes a crash left redeemed but unpaid. */
export class PayUnpaidRedemptionsCommand extends Command<number> {}

/** With other processes on the same stores, leave their in-flight redeems alone this long. */
const SHARED_STORE_GRACE_MS = 60_000;

/**
 * Pays what {@link UnpaidRedemptions} still lists once the log is replayed: a code whose
 * RedemptionRedeemed has no credit. The credit is the top-up's own (same derived command id), so
 * running this twice, or beside a top-up that did finish, credits nothing twice. On the embedded
 * store this process is alone (the DATA_DIR lock); with EventStoreDB another process may be between
 * its two appends, so only redeems older than a minute count.
 */
@CommandHandler(PayUnpaidRedemptionsCommand)
export class PayUnpaidRedemptionsHandler implements ICommandHandler<PayUnpaidRedemptionsCommand> {
  private readonly logger = new Logger('RedemptionRepair');

  constructor(
    private readonly store: StreamCommands,
    private readonly unpaid: UnpaidRedemptions,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(): Promise<number> {
    const cutoff = Date.now() - (this.config.eventStoreUrl ? SHARED_STORE_GRACE_MS : 0);
    let paid = 0;
    let last: Position | null = null;
    for (const credit of this.unpaid.list()) {
      if (credit.redeemedAt.getTime() > cutoff) continue;
      const result = await creditRedemption(this.store, credit, {
        actor: SYSTEM_ACTOR,
        correlationId: credit.correlationId,
        lang: 'en',
      });
      last = result.position ?? last;
      paid += 1;
    }
    await this.readYourWrites.waitFor(last);
    if (paid > 0) this.logger.warn(`Credited ${paid} redeemed code(s) a crash had left unpaid`);
    return paid;
  }
}
