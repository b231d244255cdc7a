import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { billingDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { OptionsCache } from '../../options/options.cache';
import type { RequestMeta } from '../../shared/request-meta';

export class TransferAffQuotaCommand extends Command<void> {
  constructor(
    readonly userId: number,
    readonly quota: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Pending invitation earnings → balance; at least one quota unit (QuotaPerUnit). */
@CommandHandler(TransferAffQuotaCommand)
export class TransferAffQuotaHandler implements ICommandHandler<TransferAffQuotaCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ userId, quota, meta }: TransferAffQuotaCommand) {
    const result = await this.store.execute(
      `billing-${userId}`,
      billingDecider,
      {
        type: 'TransferAffQuota',
        userId,
        amount: quota,
        minimum: Math.ceil(this.options.number('QuotaPerUnit')),
      },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
