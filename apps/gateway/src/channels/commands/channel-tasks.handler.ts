import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ChannelTestResult } from '@tollgate/contracts';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';
import { ChannelTasks } from '../channel-tasks';

export class TestChannelCommand extends Command<ChannelTestResult> {
  constructor(
    readonly id: number,
    readonly model: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

export class TestAllChannelsCommand extends Command<void> {
  constructor(readonly meta: RequestMeta) {
    super();
  }
}

export class UpdateChannelBalanceCommand extends Command<number> {
  constructor(
    readonly id: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

export class UpdateAllChannelBalancesCommand extends Command<void> {
  constructor(readonly meta: RequestMeta) {
    super();
  }
}

/** GET /api/channel/test/:id: the provider's verdict and the round-trip time, recorded. */
@CommandHandler(TestChannelCommand)
export class TestChannelHandler implements ICommandHandler<TestChannelCommand> {
  constructor(
    private readonly tasks: ChannelTasks,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ id, model, meta }: TestChannelCommand) {
    const { result, position } = await this.tasks.test(this.tasks.channelOrThrow(id), model, meta);
    await this.readYourWrites.waitFor(position);
    return result;
  }
}

/** GET /api/channel/test: starts the run; results arrive as events and pushes. */
@CommandHandler(TestAllChannelsCommand)
export class TestAllChannelsHandler implements ICommandHandler<TestAllChannelsCommand> {
  constructor(private readonly tasks: ChannelTasks) {}

  execute({ meta }: TestAllChannelsCommand) {
    // Answers at once: results arrive as events and pushes.
    void this.tasks.testAll(meta);
    return Promise.resolve();
  }
}

/** GET /api/channel/update_balance/:id: the provider's balance, recorded. */
@CommandHandler(UpdateChannelBalanceCommand)
export class UpdateChannelBalanceHandler implements ICommandHandler<UpdateChannelBalanceCommand> {
  constructor(
    private readonly tasks: ChannelTasks,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ id, meta }: UpdateChannelBalanceCommand) {
    const { balance, position } = await this.tasks.updateBalance(
      this.tasks.channelOrThrow(id),
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return balance;
  }
}

@CommandHandler(UpdateAllChannelBalancesCommand)
export class UpdateAllChannelBalancesHandler implements ICommandHandler<UpdateAllChannelBalancesCommand> {
  constructor(private readonly tasks: ChannelTasks) {}

  execute({ meta }: UpdateAllChannelBalancesCommand) {
    this.tasks.startUpdateAllBalances(meta);
    return Promise.resolve();
  }
}
