import { Module } from '@nestjs/common';
import { StripeClients } from './stripe-client';
import { StripeTopUpController, StripeWebhookController } from './stripe.controller';
import { StripeTopUp } from './stripe-topup.service';

/** Stripe Checkout top-up on the top-up commands (the handlers are TopUpModule's). */
@Module({
  controllers: [StripeTopUpController, StripeWebhookController],
  providers: [StripeClients, StripeTopUp],
})
export class StripeModule {}
