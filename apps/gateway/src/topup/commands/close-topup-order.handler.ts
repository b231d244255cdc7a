import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, TRADE_NO_PATTERN, topUpOrderDecider } from '@tollgate/domain';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

export type TopUpClosing =
  { readonly type: 'expire' } | { readonly type: 'fail'; readonly reason: string };

/**
 * A pending order will not be paid (a provider's expiry or failure notice): marks it expired or
 * failed. A paid or already closed order is left as it is. Answers whether anything was recorded.
 */
export class CloseTopUpOrderCommand extends Command<boolean> {
  constructor(
    readonly tradeNo: string,
    readonly closing: TopUpClosing,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(CloseTopUpOrderCommand)
export class CloseTopUpOrderHandler implements ICommandHandler<CloseTopUpOrderCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ tradeNo, closing, meta }: CloseTopUpOrderCommand): Promise<boolean> {
    if (!TRADE_NO_PATTERN.test(tradeNo)) throw new DomainError('topup.order_not_found');
    const result = await this.store.execute(
      `topup-${tradeNo}`,
      topUpOrderDecider,
      closing.type === 'expire'
        ? { type: 'ExpireTopUpOrder' }
        : { type: 'FailTopUpOrder', reason: closing.reason },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return result.events.length > 0;
  }
}
