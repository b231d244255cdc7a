import { Body, Controller, Get, Post, Query as QueryParams } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { OptionsCache } from '../options/options.cache';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import { CompleteTopUpOrderCommand } from './commands/complete-topup-order.handler';
import { CreateTopUpOrderCommand } from './commands/create-topup-order.handler';
import { epaySign } from './epay/epay-signature';
import { epaySettings } from './epay/epay-settings';
import { ListTopUpOrdersQuery } from './queries/topup-order-queries.handler';
import {
  CompleteTopUpBody,
  EpayPayBody,
  OwnTopUpListQuery,
  TopUpAmountBody,
  TopUpListQuery,
} from './topup.dto';
import { TopUpPricer } from './topup-pricer';

/** Epay's `type`: a short lower-case word ('alipay', 'wxpay', 'qqpay', …); Stripe has its own route. */
const EPAY_METHOD = /^[a-z][a-z0-9_]{0,31}$/;

/** The wallet's online top-up (Epay) and the order lists. */
@Controller('api/user')
export class TopUpOrdersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly pricer: TopUpPricer,
    private readonly options: OptionsCache,
  ) {}

  /** POST /api/user/amount: what `amount` costs this user → data: '7.30'. */
  @Post('amount')
  @RequireRole(Role.Common)
  amount(@Body() body: TopUpAmountBody, @CurrentUser() user: SignedInUser) {
    return ok(this.pricer.quote(user.group, body.amount).money.toFixed(2));
  }

  /**
   * POST /api/user/pay: opens an Epay order → `{success, message, data: signed form, url}`; the
   * browser submits `data` to `url`.
   */
  @Post('pay')
  @RequireRole(Role.Common)
  async pay(
    @Body() body: EpayPayBody,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    // Refuse before opening anything: the amount, then the method, then the configuration.
    this.pricer.quote(user.group, body.amount);
    if (!EPAY_METHOD.test(body.payment_method) || body.payment_method === 'stripe')
      throw new ApiError('topup.pay_method_invalid');
    const epay = epaySettings(this.options);
    if (!epay) throw new ApiError('topup.not_configured');
    const order = await this.commands.execute(
      new CreateTopUpOrderCommand(
        {
          userId: user.id,
          group: user.group,
          provider: 'epay',
          paymentMethod: body.payment_method,
          amount: body.amount,
        },
        meta,
      ),
    );
    const params: Record<string, string> = {
      pid: epay.partnerId,
      type: body.payment_method,
      out_trade_no: order.tradeNo,
      notify_url: epay.notifyUrl,
      return_url: epay.returnUrl,
      name: `TUC${order.amount}`,
      money: order.money.toFixed(2),
      device: 'pc',
    };
    return {
      ...ok({ ...params, sign: epaySign(params, epay.key), sign_type: 'MD5' }, 'success'),
      url: epay.submitUrl,
    };
  }

  /** GET /api/user/topup/self: the signed-in user's own orders. */
  @Get('topup/self')
  @RequireRole(Role.Common)
  async own(@QueryParams() query: OwnTopUpListQuery, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(
        new ListTopUpOrdersQuery(query.p ?? 1, query.page_size ?? 0, {
          userId: user.id,
          ...(query.status ? { status: query.status } : {}),
          ...(query.keyword ? { keyword: query.keyword } : {}),
        }),
      ),
    );
  }

  /** GET /api/user/topup: every order (admin), filtered by user_id, status, keyword (trade no). */
  @Get('topup')
  @RequireRole(Role.Admin)
  async all(@QueryParams() query: TopUpListQuery) {
    return ok(
      await this.queries.execute(
        new ListTopUpOrdersQuery(query.p ?? 1, query.page_size ?? 0, {
          ...(query.user_id !== undefined ? { userId: query.user_id } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(query.keyword ? { keyword: query.keyword } : {}),
        }),
      ),
    );
  }

  /** POST /api/user/topup/complete: an admin completes an order paid outside (補单). */
  @Post('topup/complete')
  @RequireRole(Role.Admin)
  async complete(@Body() body: CompleteTopUpBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new CompleteTopUpOrderCommand(body.trade_no.trim(), meta));
    return ok(null);
  }

  /** POST /api/user/verifyCrypto: the crypto wallet was retired. */
  @Post('verifyCrypto')
  @RequireRole(Role.Common)
  verifyCrypto(): never {
    throw new ApiError('topup.crypto_ended');
  }
}
