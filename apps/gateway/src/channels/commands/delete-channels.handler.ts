import { ChannelStatus } from '@tollgate/contracts';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, channelDecider, channelStreamId } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';
import { CHANNELS, type ChannelDocument } from '../channel.document';

export class DeleteChannelCommand extends Command<void> {
  constructor(
    readonly id: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** POST /api/channel/batch: deletes the listed channels; answers how many were deleted. */
export class DeleteChannelsCommand extends Command<number> {
  constructor(
    readonly ids: readonly number[],
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** DELETE /api/channel/disabled: every channel with status 2 or 3; answers the count. */
export class DeleteDisabledChannelsCommand extends Command<number> {
  constructor(readonly meta: RequestMeta) {
    super();
  }
}

abstract class Deleter {
  constructor(
    protected readonly store: StreamCommands,
    protected readonly readYourWrites: ReadYourWrites,
  ) {}

  /** Deletes each id that is still there (missing ones are skipped); returns how many went. */
  protected async deleteAll(ids: readonly number[], meta: RequestMeta): Promise<number> {
    let deleted = 0;
    let last: Position | null = null;
    for (const id of new Set(ids)) {
      try {
        const result = await this.store.execute(
          channelStreamId(id),
          channelDecider,
          { type: 'DeleteChannel' },
          meta,
        );
        last = result.position ?? last;
        deleted += 1;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'channel.not_found')) throw error;
      }
    }
    await this.readYourWrites.waitFor(last);
    return deleted;
  }
}

@CommandHandler(DeleteChannelCommand)
export class DeleteChannelHandler implements ICommandHandler<DeleteChannelCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ id, meta }: DeleteChannelCommand) {
    const result = await this.store.execute(
      channelStreamId(id),
      channelDecider,
      { type: 'DeleteChannel' },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
  }
}

@CommandHandler(DeleteChannelsCommand)
export class DeleteChannelsHandler
  extends Deleter
  implements ICommandHandler<DeleteChannelsCommand>
{
  constructor(store: StreamCommands, readYourWrites: ReadYourWrites) {
    super(store, readYourWrites);
  }

  execute({ ids, meta }: DeleteChannelsCommand) {
    if (ids.length === 0) throw new DomainError('channel.ids_required');
    return this.deleteAll(ids, meta);
  }
}

@CommandHandler(DeleteDisabledChannelsCommand)
export class DeleteDisabledChannelsHandler
  extends Deleter
  implements ICommandHandler<DeleteDisabledChannelsCommand>
{
  constructor(
    store: StreamCommands,
    readYourWrites: ReadYourWrites,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    super(store, readYourWrites);
  }

  async execute({ meta }: DeleteDisabledChannelsCommand) {
    const disabled = await this.readStore
      .collection<ChannelDocument>(CHANNELS)
      .find({ status: { $in: [ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled] } });
    return this.deleteAll(
      disabled.map((doc) => doc.id),
      meta,
    );
  }
}
