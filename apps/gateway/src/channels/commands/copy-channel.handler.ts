import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, channelDecider, channelStreamId, sequenceDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';

export class CopyChannelCommand extends Command<{ id: number }> {
  constructor(
    readonly sourceId: number,
    readonly suffix: string,
    readonly resetBalance: boolean,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** POST /api/channel/copy/:id: a new channel with the same configuration and (sealed) key. */
@CommandHandler(CopyChannelCommand)
export class CopyChannelHandler implements ICommandHandler<CopyChannelCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ sourceId, suffix, resetBalance, meta }: CopyChannelCommand) {
    const { state: source } = await this.store.load(channelStreamId(sourceId), channelDecider);
    if (!source.exists || source.deleted) throw new DomainError('channel.not_found');
    const { state: seq } = await this.store.execute(
      'seq-channel',
      sequenceDecider,
      { type: 'AllocateId' },
      meta,
    );
    const result = await this.store.execute(
      channelStreamId(seq.last),
      channelDecider,
      { type: 'CopyChannel', channelId: seq.last, source, suffix, resetBalance },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return { id: seq.last };
  }
}
