import { Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { ChangeRedemptionHandler } from './commands/change-redemption.handler';
import { CreateRedemptionsHandler } from './commands/create-redemptions.handler';
import { PayUnpaidRedemptionsHandler } from './commands/pay-unpaid-redemptions.handler';
import { RedeemCodeHandler } from './commands/redeem-code.handler';
import { GetRedemptionHandler, ListRedemptionsHandler } from './queries/redemption-queries.handler';
import { UnpaidRedemptions } from './redemption-credit';
import { RedemptionsController, TopUpController } from './redemptions.controller';

/** Redemption codes (admin) and POST /api/user/topup (wallet). */
@Module({
  controllers: [RedemptionsController, TopUpController],
  providers: [
    CreateRedemptionsHandler,
    ChangeRedemptionHandler,
    RedeemCodeHandler,
    PayUnpaidRedemptionsHandler,
    UnpaidRedemptions,
    ListRedemptionsHandler,
    GetRedemptionHandler,
  ],
})
export class RedemptionsModule implements OnModuleInit {
  constructor(
    private readonly feed: CacheFeed,
    private readonly unpaid: UnpaidRedemptions,
  ) {}

  onModuleInit(): void {
    this.feed.register(this.unpaid);
  }
}
