import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { randomAlphanumeric } from '../../infrastructure/random-text';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { sha256Hex } from '../../infrastructure/secret-box';
import type { RequestMeta } from '../../shared/request-meta';

export class IssueAccessTokenCommand extends Command<string> {
  constructor(
    readonly userId: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** A new system access token replaces the previous one; it is shown once, only its hash is kept. */
@CommandHandler(IssueAccessTokenCommand)
export class IssueAccessTokenHandler implements ICommandHandler<IssueAccessTokenCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ userId, meta }: IssueAccessTokenCommand): Promise<string> {
    const token = randomAlphanumeric(32);
    const result = await this.store.execute(
      `user-${userId}`,
      userDecider,
      { type: 'IssueAccessToken', tokenHash: sha256Hex(token) },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return token;
  }
}
