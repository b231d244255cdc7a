import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '@tollgate/domain';
import type { SessionClaims } from '../../auth/session-codec';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';

export class SignOutCommand extends Command<void> {
  constructor(
    readonly session: SessionClaims,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * Logout ends the session on the server, not only in the browser: UserSignedOut names it, and every
 * gateway process refuses it once its users projection has applied the event.
 */
@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ session, meta }: SignOutCommand) {
    const result = await this.store.execute(
      `user-${session.userId}`,
      userDecider,
      { type: 'SignOut', sessionId: session.sessionId, issuedAt: session.issuedAt },
      { ...meta, actor: { kind: 'user', id: session.userId, role: null } },
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
