import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { UserRegistrar } from '../user-registrar';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';
import type { CreateUserBody } from '../users.dto';

export class CreateUserCommand extends Command<{ userId: number }> {
  constructor(
    readonly body: CreateUserBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Admin-created users are ordinary users; the register switches do not apply to admins. */
@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand> {
  constructor(
    private readonly registrar: UserRegistrar,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ body, meta }: CreateUserCommand) {
    const { userId, position } = await this.registrar.register(
      {
        username: body.username,
        password: body.password,
        displayName: body.display_name,
        role: Role.Common,
        source: 'admin',
      },
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return { userId };
  }
}
