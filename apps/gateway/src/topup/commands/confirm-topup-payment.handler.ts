import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TopUpProvider } from '@tollgate/contracts';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { settleTopUpOrder, type TopUpSettlement } from './settle-topup-order';

export interface ConfirmedPayment {
  /** The provider's reference (Epay trade_no, Stripe session id). */
  readonly providerReference: string;
  /** The money the provider reports; must equal the order's to the cent. */
  readonly money: number;
  readonly provider: TopUpProvider;
}

/**
 * A verified provider callback: the money for `tradeNo` arrived. Credits the order once whatever
 * the callback does; a replay answers `credited: false`. Throws DomainError topup.order_not_found,
 * topup.money_mismatch, topup.provider_mismatch or topup.status_invalid.
 */
export class ConfirmTopUpPaymentCommand extends Command<TopUpSettlement> {
  constructor(
    readonly tradeNo: string,
    readonly payment: ConfirmedPayment,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(ConfirmTopUpPaymentCommand)
export class ConfirmTopUpPaymentHandler implements ICommandHandler<ConfirmTopUpPaymentCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ tradeNo, payment, meta }: ConfirmTopUpPaymentCommand): Promise<TopUpSettlement> {
    const { settlement, position } = await settleTopUpOrder(
      this.store,
      tradeNo,
      {
        type: 'ConfirmTopUpPayment',
        providerReference: payment.providerReference,
        money: payment.money,
        provider: payment.provider,
      },
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return settlement;
  }
}
