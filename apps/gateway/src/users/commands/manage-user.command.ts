import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ManageAction, ManageUserResultDto } from '@tollgate/contracts';
import { userDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';

export class ManageUserCommand extends Command<ManageUserResultDto> {
  constructor(
    readonly id: number,
    readonly action: ManageAction,
    readonly actor: { id: number; role: number },
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** promote / demote / enable / disable / delete; answers the new role and status. */
@CommandHandler(ManageUserCommand)
export class ManageUserHandler implements ICommandHandler<ManageUserCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ id, action, actor, meta }: ManageUserCommand): Promise<ManageUserResultDto> {
    const result = await this.store.execute(
      `user-${id}`,
      userDecider,
      { type: 'ManageUser', action, actor },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return { role: result.state.role, status: result.state.status };
  }
}
