import { Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { CloseTopUpOrderHandler } from './commands/close-topup-order.handler';
import { CompleteTopUpOrderHandler } from './commands/complete-topup-order.handler';
import { ConfirmTopUpPaymentHandler } from './commands/confirm-topup-payment.handler';
import { CreateTopUpOrderHandler } from './commands/create-topup-order.handler';
import { CreditPaidTopUpsHandler } from './commands/credit-paid-topups.handler';
import { EpayNotifyController } from './epay/epay-notify.controller';
import { ListTopUpOrdersHandler } from './queries/topup-order-queries.handler';
import { UncreditedTopUps } from './topup-credit';
import { TopUpOrdersController } from './topup.controller';
import { TopUpPricer } from './topup-pricer';

/**
 * Online top-up: `topup-<tradeNo>` orders credited exactly once, Epay, the order lists. Stripe
 * builds on the same commands (CreateTopUpOrder, ConfirmTopUpPayment, CloseTopUpOrder).
 */
@Module({
  controllers: [TopUpOrdersController, EpayNotifyController],
  providers: [
    TopUpPricer,
    UncreditedTopUps,
    CreateTopUpOrderHandler,
    ConfirmTopUpPaymentHandler,
    CompleteTopUpOrderHandler,
    CloseTopUpOrderHandler,
    CreditPaidTopUpsHandler,
    ListTopUpOrdersHandler,
  ],
  exports: [TopUpPricer],
})
export class TopUpModule implements OnModuleInit {
  constructor(
    private readonly feed: CacheFeed,
    private readonly uncredited: UncreditedTopUps,
  ) {}

  onModuleInit(): void {
    this.feed.register(this.uncredited);
  }
}
