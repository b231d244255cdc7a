/**
 * OpenAI's old dashboard billing endpoints (GET /dashboard/billing/subscription and
 * /dashboard/billing/usage, also under /v1), answered as one-api and new-api answer them, for
 * client apps that show a key's balance.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RequestTracker } from '../observability/request-tracker';
import { sendJson } from './relay-http';
import type { BalanceBookPort } from './relay-ports';
import { tokenCaller } from './relay-requests';
import type { RelaySettingsView } from './relay-settings';

/** What a subscription shows for an unlimited token (one-api and new-api show the same). */
const UNLIMITED_AMOUNT = 100_000_000;

export class BillingDashboardRoutes {
  constructor(
    private readonly settings: RelaySettingsView,
    private readonly book: BalanceBookPort,
    private readonly tracker: RequestTracker,
  ) {}

  /** The routes, behind `gate` (a token's read admission). */
  register(scope: FastifyInstance, gate: onRequestHookHandler): void {
    for (const prefix of ['', '/v1']) {
      scope.get(`${prefix}/dashboard/billing/subscription`, { onRequest: gate }, (request, reply) =>
        this.onBilling(request, reply, 'subscription'),
      );
      scope.get(`${prefix}/dashboard/billing/usage`, { onRequest: gate }, (request, reply) =>
        this.onBilling(request, reply, 'usage'),
      );
    }
  }

  private onBilling(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: 'subscription' | 'usage',
  ): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    const caller = tokenCaller(request, reply, requestId);
    if (!caller) return;
    const { user, token } = caller;
    const s = this.settings.current();
    const byToken = s.displayTokenStat && !token.unlimitedQuota;
    const used = (byToken ? this.book.tokenUsed?.(token.id) : undefined) ?? 0;
    const remain = byToken
      ? (this.book.tokenRemaining(token.id) ?? 0)
      : (this.book.userBalance(user.id) ?? 0);
    const unit = s.displayInCurrency ? s.price.quotaPerUnit : 1;
    if (kind === 'usage') {
      return sendJson(
        reply.raw,
        200,
        { object: 'list', total_usage: (used / unit) * 100 },
        requestId,
      );
    }
    const amount = token.unlimitedQuota ? UNLIMITED_AMOUNT : (remain + used) / unit;
    sendJson(
      reply.raw,
      200,
      {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: amount,
        hard_limit_usd: amount,
        system_hard_limit_usd: amount,
        access_until: token.expiredTime > 0 ? token.expiredTime : 0,
      },
      requestId,
    );
  }
}
