import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { PricingController } from './pricing.controller';
import { PricingView } from './pricing.view';

/** The public model pricing (GET /api/pricing), read from the routing table and the options. */
@Module({
  imports: [ChannelsModule],
  controllers: [PricingController],
  providers: [PricingView],
})
export class PricingModule {}
