import { Body, Controller, Get, Logger, Post, Query as QueryParams } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '@tollgate/domain';
import { OptionsCache } from '../../options/options.cache';
import type { RequestMeta } from '../../shared/request-meta';
import { Meta } from '../../shared/request-meta.decorator';
import { ConfirmTopUpPaymentCommand } from '../commands/confirm-topup-payment.handler';
import { epayVerify } from './epay-signature';
import { epaySettings } from './epay-settings';

const TRADE_SUCCESS = 'TRADE_SUCCESS';

/** Flat string fields of a query string or form; anything else is dropped. */
function fieldsOf(source: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!source || typeof source !== 'object') return fields;
  for (const [key, value] of Object.entries(source as Record<string, unknown>))
    if (typeof value === 'string') fields[key] = value;
  return fields;
}

/**
 * GET|POST /api/user/epay/notify: Epay's asynchronous notice. Public (Epay signs it with the
 * merchant key). Answers the plain text Epay expects: `success` once the order is paid (a replay
 * included), `fail` otherwise. Refusals are logged with the trade no and the reason, never the key
 * or the signature.
 */
@Controller('api/user/epay')
export class EpayNotifyController {
  private readonly logger = new Logger('EpayNotify');

  constructor(
    private readonly commands: CommandBus,
    private readonly options: OptionsCache,
  ) {}

  @Get('notify')
  notifyByGet(@QueryParams() query: unknown, @Meta() meta: RequestMeta): Promise<string> {
    return this.handle(fieldsOf(query), meta);
  }

  @Post('notify')
  notifyByPost(@Body() body: unknown, @Meta() meta: RequestMeta): Promise<string> {
    return this.handle(fieldsOf(body), meta);
  }

  private async handle(params: Record<string, string>, meta: RequestMeta): Promise<string> {
    const tradeNo = (params['out_trade_no'] ?? '').slice(0, 64);
    const refuse = (reason: string) => {
      this.logger.warn(`refused notify trade_no=${JSON.stringify(tradeNo)} reason=${reason}`);
      return 'fail';
    };
    const epay = epaySettings(this.options);
    if (!epay) return refuse('epay_not_configured');
    if (!epayVerify(params, epay.key)) return refuse('bad_signature');
    if (params['pid'] !== undefined && params['pid'] !== epay.partnerId)
      return refuse('partner_mismatch');
    if (params['trade_status'] !== TRADE_SUCCESS)
      return refuse(`trade_status_${(params['trade_status'] ?? '').slice(0, 32)}`);
    const money = Number(params['money']);
    if (!/^\d{1,12}(\.\d{1,2})?$/.test(params['money'] ?? '')) return refuse('bad_money');
    try {
      const settled = await this.commands.execute(
        new ConfirmTopUpPaymentCommand(
          tradeNo,
          { providerReference: params['trade_no'] ?? '', money, provider: 'epay' },
          meta,
        ),
      );
      this.logger.log(
        settled.credited
          ? `credited trade_no=${tradeNo} user_id=${settled.userId} quota=${settled.quota}`
          : `replayed notify ignored trade_no=${tradeNo}`,
      );
      return 'success';
    } catch (error) {
      if (error instanceof DomainError) return refuse(error.code);
      this.logger.error(`notify failed trade_no=${tradeNo}: ${String(error)}`);
      return 'fail';
    }
  }
}
