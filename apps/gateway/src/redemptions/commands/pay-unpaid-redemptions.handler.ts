import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { OwedCreditRepair } from '../../billing/owed-credits';
import { UnpaidRedemptions } from '../redemption-credit';

/** Start-up, after the hot caches replayed the log: credits codes a crash left redeemed but unpaid. */
export class PayUnpaidRedemptionsCommand extends Command<number> {}

/** Pays what {@link UnpaidRedemptions} still lists (see {@link OwedCreditRepair}). */
@CommandHandler(PayUnpaidRedemptionsCommand)
export class PayUnpaidRedemptionsHandler
  extends OwedCreditRepair
  implements ICommandHandler<PayUnpaidRedemptionsCommand>
{
  constructor(
    store: StreamCommands,
    unpaid: UnpaidRedemptions,
    readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(
      'RedemptionRepair',
      unpaid,
      store,
      readYourWrites,
      config,
      (count) => `Credited ${count} redeemed code(s) a crash had left unpaid`,
    );
  }
}
