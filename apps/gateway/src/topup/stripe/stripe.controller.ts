import { Body, Controller, Headers, HttpCode, Logger, Post, Req, UseGuards } from '@nestjs/common';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../../auth/auth.decorators';
import { CriticalRateLimitGuard } from '../../auth/critical-rate-limit.guard';
import type { RawBodyRequest } from '../../http-edge/body-limits';
import type { SignedInUser } from '../../auth/signed-in-user';
import { ApiError } from '../../shared/api-error';
import { ok } from '../../shared/envelope';
import type { RequestMeta } from '../../shared/request-meta';
import { Meta } from '../../shared/request-meta.decorator';
import { StripeAmountBody } from './stripe.dto';
import { StripeTopUp } from './stripe-topup.service';

/** The wallet's Stripe Checkout top-up: any signed-in user. */
@Controller('api/user')
@RequireRole(Role.Common)
export class StripeTopUpController {
  constructor(private readonly stripe: StripeTopUp) {}

  /** POST /api/user/createStripe {amount} → data: the Checkout URL. */
  @Post('createStripe')
  @UseGuards(CriticalRateLimitGuard)
  async create(
    @Body() body: StripeAmountBody,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return ok(await this.stripe.checkout(user, body.amount, meta));
  }

  /** POST /api/user/stripe/pay {amount, payment_method:'stripe'} → data: {pay_link} (new-api). */
  @Post('stripe/pay')
  @UseGuards(CriticalRateLimitGuard)
  async pay(
    @Body() body: StripeAmountBody,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    if (body.payment_method !== undefined && body.payment_method !== 'stripe')
      throw new ApiError('topup.pay_method_invalid');
    return ok({ pay_link: await this.stripe.checkout(user, body.amount, meta) });
  }

  /** POST /api/user/stripe/amount {amount} → data: what Stripe will charge, '8.00' (new-api). */
  @Post('stripe/amount')
  amount(@Body() body: StripeAmountBody) {
    return ok(this.stripe.quote(body.amount));
  }
}

/**
 * POST /api/stripe/webhook: public, trusted only through `Stripe-Signature` over the raw body.
 * 400 when the signature does not hold (Stripe retries, nothing is recorded); 200 for every verified
 * event, acted on or not, so Stripe stops sending it; 500 when the log could not record the
 * credit (Stripe retries later, and the order stream credits once whatever the retries do).
 */
@Controller('api/stripe')
export class StripeWebhookController {
  private readonly logger = new Logger('StripeWebhook');

  constructor(private readonly stripe: StripeTopUp) {}

  @Post('webhook')
  @HttpCode(200)
  async webhook(
    @Req() request: RawBodyRequest,
    @Headers('stripe-signature') signature: string | undefined,
    @Meta() meta: RequestMeta,
  ) {
    const event = await this.stripe.verify(request.rawBody, signature).catch((error: unknown) => {
      this.logger.warn('refused a webhook: the signature does not hold');
      throw error;
    });
    const outcome = await this.stripe.handle(event, meta);
    this.logger.log(`event ${event.id} (${event.type}): ${outcome}`);
    return ok();
  }
}
