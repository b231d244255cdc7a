import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertPasswordRules, userDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { UserDocument } from '../../projections/user.document';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { UpdateSelfBody } from '../accounts.dto';

export class UpdateSelfCommand extends Command<{ passwordChanged: boolean }> {
  constructor(
    readonly user: UserDocument,
    readonly body: UpdateSelfBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Display name and password; a new password needs the current one (decided: safer than the anchors). */
@CommandHandler(UpdateSelfCommand)
export class UpdateSelfHandler implements ICommandHandler<UpdateSelfCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ user, body, meta }: UpdateSelfCommand) {
    const wantsPassword = body.password !== undefined && body.password !== '';
    if (wantsPassword) {
      assertPasswordRules(body.password!);
      if (!body.original_password) throw new ApiError('auth.original_password_required');
      if (!(await this.hasher.verify(body.original_password, user.password_hash)))
        throw new ApiError('auth.original_password_wrong');
    }
    const result = await this.store.execute(
      `user-${user.id}`,
      userDecider,
      {
        type: 'EditUser',
        displayName:
          body.display_name === undefined ? undefined : body.display_name.trim() || user.username,
        passwordHash: wantsPassword ? await this.hasher.hash(body.password!) : undefined,
        passwordReason: 'self',
      },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return { passwordChanged: wantsPassword };
  }
}
