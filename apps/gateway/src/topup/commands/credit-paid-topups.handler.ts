import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { OwedCreditRepair } from '../../billing/owed-credits';
import { UncreditedTopUps } from '../topup-credit';

/** Start-up, after the hot caches replayed the log: credits orders a crash left paid but uncredited. */
export class CreditPaidTopUpsCommand extends Command<number> {}

/** Credits what {@link UncreditedTopUps} still lists (see {@link OwedCreditRepair}). */
@CommandHandler(CreditPaidTopUpsCommand)
export class CreditPaidTopUpsHandler
  extends OwedCreditRepair
  implements ICommandHandler<CreditPaidTopUpsCommand>
{
  constructor(
    store: StreamCommands,
    uncredited: UncreditedTopUps,
    readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(
      'TopUpRepair',
      uncredited,
      store,
      readYourWrites,
      config,
      (count) => `Credited ${count} paid order(s) a crash had left uncredited`,
    );
  }
}
