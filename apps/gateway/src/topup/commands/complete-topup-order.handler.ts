import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { settleTopUpOrder, type TopUpSettlement } from './settle-topup-order';

/**
 * POST /api/user/topup/complete: an administrator completes an order paid outside the gateway (the
 * admin is the events' actor). Refused for a paid order (topup.already_completed).
 */
export class CompleteTopUpOrderCommand extends Command<TopUpSettlement> {
  constructor(
    readonly tradeNo: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(CompleteTopUpOrderCommand)
export class CompleteTopUpOrderHandler implements ICommandHandler<CompleteTopUpOrderCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ tradeNo, meta }: CompleteTopUpOrderCommand): Promise<TopUpSettlement> {
    const { settlement, position } = await settleTopUpOrder(
      this.store,
      tradeNo,
      { type: 'CompleteTopUpOrder' },
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return settlement;
  }
}
