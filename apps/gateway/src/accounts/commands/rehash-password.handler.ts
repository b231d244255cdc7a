import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR, userDecider } from '@tollgate/domain';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';

export class RehashPasswordCommand extends Command<void> {
  constructor(
    readonly userId: number,
    /** The password that just verified against the imported (bcrypt) hash. */
    readonly password: string,
  ) {
    super();
  }
}

/**
 * A password imported from one-api / new-api (bcrypt) that just signed in is stored again under our
 * own argon2id hash: UserPasswordChanged with reason `rehash`, by the system actor. The sessions
 * and the access token stay valid (it is the same password).
 */
@CommandHandler(RehashPasswordCommand)
export class RehashPasswordHandler implements ICommandHandler<RehashPasswordCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ userId, password }: RehashPasswordCommand): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    const result = await this.store.execute(
      `user-${userId}`,
      userDecider,
      { type: 'ChangePassword', passwordHash, reason: 'rehash' },
      { actor: SYSTEM_ACTOR, correlationId: randomUUID(), lang: 'en' },
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
