import { randomBytes } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TopUpProvider } from '@tollgate/contracts';
import { topUpOrderDecider, type TopUpOrderCreated } from '@tollgate/domain';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { TopUpPricer, type PriceOverrides } from '../topup-pricer';

export interface CreateTopUpOrderInput extends PriceOverrides {
  readonly userId: number;
  /** The user's group: picks the TopupGroupRatio. */
  readonly group: string;
  readonly provider: TopUpProvider;
  /** 'alipay', 'wxpay', … or 'stripe'. */
  readonly paymentMethod: string;
  readonly amount: number;
  /** Default: new-api's shape, `USR<id>NO<6 random><unix seconds>`. */
  readonly tradeNo?: string;
}

/** Opens a `topup-<tradeNo>` order; answers what was recorded (money, quota, trade no…). */
export class CreateTopUpOrderCommand extends Command<TopUpOrderCreated['data']> {
  constructor(
    readonly input: CreateTopUpOrderInput,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newTradeNo(userId: number, now = new Date()): string {
  const random = [...randomBytes(6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `USR${userId}NO${random}${Math.floor(now.getTime() / 1000)}`;
}

@CommandHandler(CreateTopUpOrderCommand)
export class CreateTopUpOrderHandler implements ICommandHandler<CreateTopUpOrderCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly pricer: TopUpPricer,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input, meta }: CreateTopUpOrderCommand): Promise<TopUpOrderCreated['data']> {
    const tradeNo = input.tradeNo ?? newTradeNo(input.userId);
    const priced = this.pricer.quote(input.group, input.amount, input);
    const result = await this.store.execute(
      `topup-${tradeNo}`,
      topUpOrderDecider,
      {
        type: 'CreateTopUpOrder',
        tradeNo,
        userId: input.userId,
        provider: input.provider,
        paymentMethod: input.paymentMethod,
        amount: input.amount,
        price: priced.price,
        groupRatio: priced.groupRatio,
        quotaPerUnit: this.pricer.quotaPerUnit(),
        minTopUp: input.minTopUp ?? this.pricer.minTopUp(),
        ...(input.creditFee ? { creditFee: input.creditFee } : {}),
      },
      meta,
    );
    const event = result.events[0];
    if (!event || event.type !== 'TopUpOrderCreated') throw new Error('order not created');
    await this.readYourWrites.waitFor(result.position);
    return event.data;
  }
}
