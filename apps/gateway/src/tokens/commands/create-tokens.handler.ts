import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MAX_TOKEN_BATCH, TOKEN_KEY_LENGTH, type CreateTokensResultDto } from '@tollgate/contracts';
import {
  DomainError,
  sequenceDecider,
  toTokenSettings,
  tokenDecider,
  type TokenInput,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { randomAlphanumeric } from '../../infrastructure/random-text';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { SecretBox, sha256Hex } from '../../infrastructure/secret-box';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

export class CreateTokensCommand extends Command<CreateTokensResultDto> {
  constructor(
    readonly userId: number,
    readonly input: TokenInput,
    readonly count: number,
    readonly allowedGroups: readonly string[],
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

const SUFFIX_LENGTH = 6;

/**
 * Creates `count` tokens (their ids taken from seq-token in one append, one token-<id> stream
 * each). The form is validated once before any id is taken, so bad input creates nothing and every
 * token of the batch passes the same checks; the answer says how many were created.
 */
@CommandHandler(CreateTokensCommand)
export class CreateTokensHandler implements ICommandHandler<CreateTokensCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly secretBox: SecretBox,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: CreateTokensCommand): Promise<CreateTokensResultDto> {
    const { userId, input, count, allowedGroups, meta } = command;
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_TOKEN_BATCH)
      throw new DomainError('token.count_invalid');
    const named = (name: string) => ({ ...input, name });
    const suffixed = (name: string) =>
      count === 1 ? name : `${name}-${randomAlphanumeric(SUFFIX_LENGTH)}`;
    // Validate the form (with a suffix of the final length) before spending an id.
    toTokenSettings(named(suffixed(input.name.trim())), new Date(), allowedGroups);
    const allocated = await this.store.execute(
      'seq-token',
      sequenceDecider,
      { type: 'AllocateId', count },
      meta,
    );
    const ids = allocated.events.map((e) => e.data.id);
    let last: Position | null = null;
    for (const tokenId of ids) {
      const key = randomAlphanumeric(TOKEN_KEY_LENGTH);
      const created = await this.store.execute(
        `token-${tokenId}`,
        tokenDecider,
        {
          type: 'CreateToken',
          tokenId,
          userId,
          sealedKey: this.secretBox.seal(key),
          keyHash: sha256Hex(key),
          input: named(suffixed(input.name.trim())),
          allowedGroups,
        },
        meta,
      );
      last = created.position ?? last;
    }
    await this.readYourWrites.waitFor(last);
    return { count: ids.length, ids };
  }
}
