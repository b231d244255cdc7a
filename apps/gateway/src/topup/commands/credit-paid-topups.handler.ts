import { Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { appendOwedCredit } from '../../billing/owed-credits';
import { UncreditedTopUps } from '../topup-credit';

/** Start-up, after the hot caches replayed the log: credits orders a crash left paid but uncredited. */
export class CreditPaidTopUpsCommand extends Command<number> {}

/**
 * Credits what {@link UncreditedTopUps} still lists. The credit is the callback's own (same
 * derived command id), so running this beside a callback that did finish credits nothing twice.
 */
@CommandHandler(CreditPaidTopUpsCommand)
export class CreditPaidTopUpsHandler implements ICommandHandler<CreditPaidTopUpsCommand> {
  private readonly logger = new Logger('TopUpRepair');

  constructor(
    private readonly store: StreamCommands,
    private readonly uncredited: UncreditedTopUps,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(): Promise<number> {
    let credited = 0;
    let last: Position | null = null;
    for (const credit of this.uncredited.list()) {
      const result = await appendOwedCredit(this.store, 'topup', credit, {
        actor: SYSTEM_ACTOR,
        correlationId: credit.correlationId,
        lang: 'en',
      });
      last = result.position ?? last;
      if (result.events.length > 0) credited += 1;
    }
    await this.readYourWrites.waitFor(last);
    if (credited > 0)
      this.logger.warn(`Credited ${credited} paid order(s) a crash had left uncredited`);
    return credited;
  }
}
