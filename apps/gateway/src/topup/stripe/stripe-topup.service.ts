import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError, TRADE_NO_PATTERN, topUpOrderDecider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import type { SignedInUser } from '../../auth/signed-in-user';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { GatewaySecrets } from '../../options/gateway-secrets';
import { OptionsCache } from '../../options/options.cache';
import { userDocument } from '../../users/user-lookup';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import { CloseTopUpOrderCommand } from '../commands/close-topup-order.handler';
import { ConfirmTopUpPaymentCommand } from '../commands/confirm-topup-payment.handler';
import { CreateTopUpOrderCommand } from '../commands/create-topup-order.handler';
import type Stripe from 'stripe';
import { StripeClients } from './stripe-client';
import {
  STRIPE_FEE,
  STRIPE_MAX_TOPUP,
  stripeEnabled,
  stripeMinTopUp,
  stripePayCents,
} from './stripe-settings';

/** What a verified webhook event did (logged; Stripe is answered 200 whatever it is). */
export type WebhookOutcome = 'credited' | 'replayed' | 'closed' | 'ignored' | 'unknown_order';

/** Stripe's error fields that name the failure without echoing anything secret. */
function describeStripeError(error: unknown): string {
  const e = error as { type?: unknown; code?: unknown; statusCode?: unknown };
  const parts = [e.type, e.code, e.statusCode].filter(
    (part) => typeof part === 'string' || typeof part === 'number',
  );
  return parts.length > 0 ? parts.join(' ') : 'network error';
}

/**
 * Stripe Checkout top-up: an order stream per Checkout session (the top-up commands),
 * the session created through the official library, the credit on the signed
 * `checkout.session.completed`. The API key and webhook secret are read from the options at each
 * call and never logged.
 */
@Injectable()
export class StripeTopUp {
  private readonly logger = new Logger('StripeTopUp');

  constructor(
    private readonly options: OptionsCache,
    private readonly clients: StripeClients,
    private readonly commands: CommandBus,
    private readonly store: StreamCommands,
    private readonly secrets: GatewaySecrets,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  /** Refuses a non-integer amount, or one outside StripeMinTopUp..10000 (in the envelope). */
  private checkAmount(amount: number): void {
    if (!Number.isSafeInteger(amount)) throw new ApiError('stripe.amount_invalid');
    const minimum = stripeMinTopUp(this.options);
    if (amount < minimum) throw new ApiError('topup.amount_below_minimum', { minimum });
    if (amount > STRIPE_MAX_TOPUP)
      throw new ApiError('stripe.amount_too_large', { maximum: STRIPE_MAX_TOPUP });
  }

  /** POST /api/user/stripe/amount: what the wallet shows before paying, '8.00'. */
  quote(amount: number): string {
    this.checkAmount(amount);
    const cents = stripePayCents(amount, this.options.number('StripeUnitPrice'));
    return (cents / 100).toFixed(2);
  }

  /**
   * Opens the order (pending), then the Checkout session for it: `amount` units of StripePriceId,
   * the trade no as client_reference_id and in the metadata. Answers the session's URL. A session
   * Stripe refuses fails the order, so no pending order is left without a way to pay it.
   */
  async checkout(user: SignedInUser, amount: number, meta: RequestMeta): Promise<string> {
    if (!stripeEnabled(this.options)) throw new ApiError('stripe.disabled');
    this.checkAmount(amount);
    const serverAddress = this.options.get('ServerAddress').trim().replace(/\/+$/, '');
    if (!serverAddress) throw new ApiError('option.server_address_required');
    const { email } = await userDocument(this.readStore, user.id);
    const order = await this.commands.execute(
      new CreateTopUpOrderCommand(
        {
          userId: user.id,
          group: user.group,
          provider: 'stripe',
          paymentMethod: 'stripe',
          amount,
          price: this.options.number('StripeUnitPrice'),
          minTopUp: stripeMinTopUp(this.options),
          // Stripe charges Price × quantity: no group ratio can apply, and Stripe's fee is kept.
          groupRatio: 1,
          creditFee: STRIPE_FEE,
        },
        meta,
      ),
    );
    let session: Stripe.Checkout.Session;
    try {
      const stripe = await this.clients.client(this.options.get('StripeApiSecret'));
      session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ price: this.options.get('StripePriceId'), quantity: amount }],
          client_reference_id: order.tradeNo,
          metadata: { trade_no: order.tradeNo, user_id: String(user.id) },
          payment_intent_data: { metadata: { trade_no: order.tradeNo } },
          ...(email ? { customer_email: email } : {}),
          customer_creation: 'always',
          success_url: `${serverAddress}/topup?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${serverAddress}/topup`,
        },
        // A retried request (the library retries once) creates one session, not two.
        { idempotencyKey: `tollgate-topup-${order.tradeNo}` },
      );
    } catch (error) {
      // Logged, recorded on the order and answered: the API key is masked if Stripe quotes it.
      const detail = this.secrets.scrub(describeStripeError(error));
      this.logger.warn(`checkout session for order ${order.tradeNo} failed: ${detail}`);
      await this.commands
        .execute(
          new CloseTopUpOrderCommand(
            order.tradeNo,
            { type: 'fail', reason: `checkout session: ${detail}` },
            meta,
          ),
        )
        .catch(() => undefined);
      throw new ApiError('stripe.checkout_failed', { detail });
    }
    if (!session.url) throw new ApiError('stripe.checkout_failed', { detail: 'no url' });
    return session.url;
  }

  /**
   * Verifies `Stripe-Signature` over the raw body with StripeWebhookSecret (the library's
   * constructEvent, 5 minutes' tolerance). Throws ApiError 400 when it does not hold.
   */
  async verify(rawBody: string | undefined, signature: string | undefined): Promise<Stripe.Event> {
    const secret = this.options.get('StripeWebhookSecret');
    if (!secret || rawBody === undefined || !signature)
      throw new ApiError('stripe.signature_invalid', {}, 400);
    const stripe = await this.clients.client(this.options.get('StripeApiSecret') || 'sk_unset');
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new ApiError('stripe.signature_invalid', {}, 400);
    }
  }

  /** Acts on a verified event: completed (paid) sessions credit their order once; expired close it. */
  async handle(event: Stripe.Event, meta: RequestMeta): Promise<WebhookOutcome> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        if (session.status !== 'complete') return 'ignored';
        // Delayed methods (bank debits) complete unpaid; async_payment_succeeded follows them.
        if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')
          return 'ignored';
        return this.confirm(session, meta);
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed': {
        const tradeNo = tradeNoOf(event.data.object);
        if (!tradeNo) return 'unknown_order';
        const closing =
          event.type === 'checkout.session.expired'
            ? ({ type: 'expire' } as const)
            : ({ type: 'fail', reason: 'async payment failed' } as const);
        const closed = await this.commands
          .execute(new CloseTopUpOrderCommand(tradeNo, closing, meta))
          .catch((error: unknown) => {
            if (error instanceof DomainError) return false;
            throw error;
          });
        return closed ? 'closed' : 'ignored';
      }
      default:
        return 'ignored';
    }
  }

  private async confirm(
    session: Stripe.Checkout.Session,
    meta: RequestMeta,
  ): Promise<WebhookOutcome> {
    const tradeNo = tradeNoOf(session);
    if (!tradeNo) return 'unknown_order';
    const order = await this.store.load(`topup-${tradeNo}`, topUpOrderDecider);
    if (!order.state.exists || order.state.provider !== 'stripe') return 'unknown_order';
    const paid = session.amount_total ?? 0;
    // Stripe charged quantity × the Price's unit amount: the session, created by us for this order,
    // vouches for it. StripeUnitPrice only shows the price, so a different figure is only reported.
    if (Math.round(order.state.money * 100) !== paid)
      this.logger.warn(
        `order ${tradeNo}: Stripe reports ${paid} (${session.currency ?? '?'} minor units), ` +
          `StripeUnitPrice gave ${order.state.money}`,
      );
    const settlement = await this.commands.execute(
      new ConfirmTopUpPaymentCommand(
        tradeNo,
        { providerReference: session.id, money: order.state.money, provider: 'stripe' },
        meta,
      ),
    );
    return settlement.credited ? 'credited' : 'replayed';
  }
}

/** The order a session pays: its client_reference_id (metadata.trade_no as a fallback). */
function tradeNoOf(session: Stripe.Checkout.Session): string | null {
  const candidate = session.client_reference_id ?? session.metadata?.['trade_no'] ?? '';
  return TRADE_NO_PATTERN.test(candidate) ? candidate : null;
}
