import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { DomainError } from '@tollgate/domain';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { OptionsCache } from '../../options/options.cache';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { RegisterBody } from '../accounts.dto';
import { assertEmailAllowed } from '../email-policy';
import { UserRegistrar } from '../user-registrar';

export class RegisterUserCommand extends Command<{ userId: number }> {
  constructor(
    readonly body: RegisterBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Self-registration: the register switches, email rules, then the shared registrar. */
@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand> {
  constructor(
    private readonly registrar: UserRegistrar,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ body, meta }: RegisterUserCommand) {
    if (!this.options.bool('RegisterEnabled')) throw new ApiError('auth.register_disabled');
    if (!this.options.bool('PasswordRegisterEnabled'))
      throw new ApiError('auth.password_register_disabled');
    if (body.password2 !== undefined && body.password2 !== body.password)
      throw new ApiError('auth.passwords_differ');
    const email = body.email?.trim() ?? '';
    if (this.options.bool('EmailVerificationEnabled')) {
      if (!email || !body.verification_code) throw new ApiError('auth.email_verification_required');
      // Codes are mailed by the verification endpoint of the mail work; none can be valid before it.
      throw new DomainError('auth.verification_code_invalid');
    }
    if (email) assertEmailAllowed(email, this.options);
    const { userId, position } = await this.registrar.register(
      {
        username: body.username,
        password: body.password,
        email,
        role: Role.Common,
        affCode: body.aff_code?.trim() || undefined,
        source: 'register',
      },
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return { userId };
  }
}
