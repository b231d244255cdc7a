import { Module } from '@nestjs/common';
import { ChangeRedemptionHandler } from './commands/change-redemption.handler';
import { CreateRedemptionsHandler } from './commands/create-redemptions.handler';
import { RedeemCodeHandler } from './commands/redeem-code.handler';
import { GetRedemptionHandler, ListRedemptionsHandler } from './queries/redemption-queries.handler';
import { RedemptionsController, TopUpController } from './redemptions.controller';

/** Redemption codes (admin) and POST /api/user/topup (wallet). */
@Module({
  controllers: [RedemptionsController, TopUpController],
  providers: [
    CreateRedemptionsHandler,
    ChangeRedemptionHandler,
    RedeemCodeHandler,
    ListRedemptionsHandler,
    GetRedemptionHandler,
  ],
})
export class RedemptionsModule {}
