import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelDecider, channelStreamId, type UpdateChannel } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { SecretBox } from '../../infrastructure/secret-box';
import type { RequestMeta } from '../../shared/request-meta';
import { toChannelChanges } from '../channel-changes';
import type { UpdateChannelBody } from '../channels.dto';

export class UpdateChannelCommand extends Command<void> {
  constructor(
    readonly body: UpdateChannelBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** PUT /api/channel/: full or partial update; an empty key keeps the stored one. */
@CommandHandler(UpdateChannelCommand)
export class UpdateChannelHandler implements ICommandHandler<UpdateChannelCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly secretBox: SecretBox,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ body, meta }: UpdateChannelCommand) {
    const stream = channelStreamId(body.id);
    const changes = toChannelChanges(body);
    const newKey = body.key?.trim() ?? '';
    let command: UpdateChannel = {
      type: 'UpdateChannel',
      changes,
      ...(body.status !== undefined ? { status: body.status } : {}),
    };
    if (newKey !== '') {
      command = { ...command, key: newKey, sealedKey: this.secretBox.seal(newKey) };
    } else if (changes.type !== undefined) {
      // A type change re-checks the stored key against the new type's format.
      const { state } = await this.store.load(stream, channelDecider);
      if (state.exists && !state.deleted && state.config.type !== changes.type)
        command = { ...command, key: this.secretBox.open(state.key), sealedKey: state.key };
    }
    const result = await this.store.execute(stream, channelDecider, command, meta);
    await this.readYourWrites.waitFor(result.position);
  }
}
