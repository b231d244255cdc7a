import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isRoot } from '@tollgate/contracts';
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

/**
 * PUT /api/channel/: full or partial update; an empty key keeps the stored one, except that only
 * root may keep it while changing where it is sent (type, base URL, `other`): an administrator
 * enters the key again in that same update, or the update is refused and nothing is recorded.
 */
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
    const mayRetargetStoredKey = isRoot(meta.actor.role ?? 0);
    let command: UpdateChannel = {
      type: 'UpdateChannel',
      changes,
      mayRetargetStoredKey,
      ...(body.status !== undefined ? { status: body.status } : {}),
    };
    if (newKey !== '') {
      command = { ...command, key: newKey, sealedKey: this.secretBox.seal(newKey) };
    } else if (changes.type !== undefined && mayRetargetStoredKey) {
      // A type change re-checks the stored key against the new type's format.
      const { state } = await this.store.load(stream, channelDecider);
      if (state.exists && !state.deleted && state.config.type !== changes.type)
        command = { ...command, key: this.secretBox.open(state.key), sealedKey: state.key };
    }
    const result = await this.store.execute(stream, channelDecider, command, meta);
    await this.readYourWrites.waitFor(result.position);
  }
}
