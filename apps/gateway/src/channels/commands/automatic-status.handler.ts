import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestMeta } from '../../shared/request-meta';
import { ChannelTasks } from '../channel-tasks';

/**
 * For the relay and the scheduler: status 3 with the reason (no event unless enabled). Resolves
 * once appended; the routing table drops the channel as soon as the cache feed delivers it.
 */
export class DisableChannelAutomaticallyCommand extends Command<boolean> {
  constructor(
    readonly channelId: number,
    readonly reason: string,
    /** The request that caused it (its correlation id is kept); the actor is always the system. */
    readonly cause?: RequestMeta,
    /** The model of the failing call, for the channel alert. */
    readonly model?: string,
  ) {
    super();
  }
}

/** Back to 1, only from status 3 (never overrides an admin's manual disable). */
export class EnableChannelAutomaticallyCommand extends Command<boolean> {
  constructor(
    readonly channelId: number,
    readonly cause?: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(DisableChannelAutomaticallyCommand)
export class DisableChannelAutomaticallyHandler implements ICommandHandler<DisableChannelAutomaticallyCommand> {
  constructor(private readonly tasks: ChannelTasks) {}

  async execute({ channelId, reason, cause, model }: DisableChannelAutomaticallyCommand) {
    const result = await this.tasks.setStatusAutomatically(
      channelId,
      { kind: 'disable', reason, ...(model ? { model } : {}) },
      cause,
    );
    return result.events.length > 0;
  }
}

@CommandHandler(EnableChannelAutomaticallyCommand)
export class EnableChannelAutomaticallyHandler implements ICommandHandler<EnableChannelAutomaticallyCommand> {
  constructor(private readonly tasks: ChannelTasks) {}

  async execute({ channelId, cause }: EnableChannelAutomaticallyCommand) {
    const result = await this.tasks.setStatusAutomatically(channelId, { kind: 'enable' }, cause);
    return result.events.length > 0;
  }
}
