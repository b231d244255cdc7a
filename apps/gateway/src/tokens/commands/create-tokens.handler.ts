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
 * Creates `count` tokens (ids from seq-token, one token-<id> stream each). The form is validated
 * once before the first id is taken, so bad input creates nothing; a batch stops at the first
 * failure and answers how many were created.
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
    const ids: number[] = [];
    let last: Position | null = null;
    for (let i = 0; i < count; i += 1) {
      const { state: seq } = await this.store.execute(
        'seq-token',
        sequenceDecider,
        { type: 'AllocateId' },
        meta,
      );
      const key = randomAlphanumeric(TOKEN_KEY_LENGTH);
      const created = await this.store.execute(
        `token-${seq.last}`,
        tokenDecider,
        {
          type: 'CreateToken',
          tokenId: seq.last,
          userId,
          sealedKey: this.secretBox.seal(key),
          keyHash: sha256Hex(key),
          input: named(suffixed(input.name.trim())),
          allowedGroups,
        },
        meta,
      );
      ids.push(seq.last);
      last = created.position ?? last;
    }
    await this.readYourWrites.waitFor(last);
    return { count: ids.length, ids };
  }
}
