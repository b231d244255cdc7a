import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { splitChannelKeys } from '@tollgate/contracts';
import {
  DomainError,
  EMPTY_CHANNEL_CONFIG,
  assertValidChannelKey,
  channelDecider,
  channelStreamId,
  normalizeChannelConfig,
  sequenceDecider,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { SecretBox } from '../../infrastructure/secret-box';
import type { RequestMeta } from '../../shared/request-meta';
import { toChannelChanges } from '../channel-changes';
import type { ChannelFieldsBody } from '../channels.dto';

export class CreateChannelsCommand extends Command<{ ids: number[] }> {
  constructor(
    readonly fields: ChannelFieldsBody,
    /** new-api's mode: 'single' keeps the key field whole. */
    readonly mode: string | undefined,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * POST /api/channel/: one channel per key line (JSON-keyed types: one). Every key and the shared
 * configuration are checked before the first id is taken, so a bad line creates nothing.
 */
@CommandHandler(CreateChannelsCommand)
export class CreateChannelsHandler implements ICommandHandler<CreateChannelsCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly secretBox: SecretBox,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ fields, mode, meta }: CreateChannelsCommand) {
    const config = toChannelChanges(fields);
    const type = config.type ?? EMPTY_CHANNEL_CONFIG.type;
    const keyText = fields.key ?? '';
    const keys =
      mode === 'single' || mode === 'multi_to_single'
        ? [keyText.trim()].filter((k) => k !== '')
        : splitChannelKeys(type, keyText);
    if (keys.length === 0 || !(fields.name ?? '').trim())
      throw new DomainError('channel.name_key_required');
    normalizeChannelConfig({ ...EMPTY_CHANNEL_CONFIG, ...config });
    for (const key of keys) assertValidChannelKey(type, key);

    const ids: number[] = [];
    let last: Position | null = null;
    for (const key of keys) {
      const { state: seq } = await this.store.execute(
        'seq-channel',
        sequenceDecider,
        { type: 'AllocateId' },
        meta,
      );
      const channelId = seq.last;
      const created = await this.store.execute(
        channelStreamId(channelId),
        channelDecider,
        {
          type: 'CreateChannel',
          channelId,
          config,
          key,
          sealedKey: this.secretBox.seal(key),
          ...(fields.status !== undefined ? { status: fields.status } : {}),
        },
        meta,
      );
      last = created.position ?? last;
      ids.push(channelId);
    }
    await this.readYourWrites.waitFor(last);
    return { ids };
  }
}
