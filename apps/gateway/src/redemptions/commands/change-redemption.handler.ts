import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { redemptionDecider, type RedemptionCommand } from '@tollgate/domain';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

type AdminChange = Extract<
  RedemptionCommand,
  { type: 'UpdateRedemption' | 'ChangeRedemptionStatus' | 'DeleteRedemption' }
>;

/** An admin's edit, status toggle or delete of a code. */
export class ChangeRedemptionCommand extends Command<void> {
  constructor(
    readonly change: AdminChange,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(ChangeRedemptionCommand)
export class ChangeRedemptionHandler implements ICommandHandler<ChangeRedemptionCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ change, meta }: ChangeRedemptionCommand): Promise<void> {
    const result = await this.store.execute(
      `redemption-${change.redemptionId}`,
      redemptionDecider,
      change,
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
