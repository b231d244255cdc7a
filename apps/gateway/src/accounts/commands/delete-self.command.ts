import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';

export class DeleteSelfCommand extends Command<void> {
  constructor(
    readonly userId: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Deregistration is a mark, not an erasure: the user's history stays in the log. */
@CommandHandler(DeleteSelfCommand)
export class DeleteSelfHandler implements ICommandHandler<DeleteSelfCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ userId, meta }: DeleteSelfCommand) {
    const result = await this.store.execute(
      `user-${userId}`,
      userDecider,
      { type: 'DeregisterSelf' },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
