import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { tokenDecider, type TokenCommand, type TokenState } from '@tollgate/domain';
import { BalanceBook } from '../../billing/balance-book';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

type OwnerCommand = Extract<
  TokenCommand,
  { type: 'UpdateToken' | 'ChangeTokenStatus' | 'DeleteToken' }
>;
type WithoutRemaining<C> = C extends { type: 'ChangeTokenStatus' } ? Omit<C, 'remaining'> : C;

/** An owner's update, status toggle or delete of one of their tokens. */
export class ChangeTokenCommand extends Command<TokenState> {
  constructor(
    readonly change: WithoutRemaining<OwnerCommand>,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

@CommandHandler(ChangeTokenCommand)
export class ChangeTokenHandler implements ICommandHandler<ChangeTokenCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly book: BalanceBook,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ change, meta }: ChangeTokenCommand): Promise<TokenState> {
    const command: OwnerCommand =
      change.type === 'ChangeTokenStatus'
        ? // Enabling an exhausted token needs quota left, charges included: the book knows.
          { ...change, remaining: this.book.tokenRemaining(change.tokenId) ?? 0 }
        : change;
    const result = await this.store.execute(`token-${change.tokenId}`, tokenDecider, command, meta);
    await this.readYourWrites.waitFor(result.position);
    return result.state;
  }
}
