import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { EmailCodes } from '../../mail/email-codes';
import { OptionsCache } from '../../options/options.cache';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { RegisterBody } from '../accounts.dto';
import { assertEmailAllowed } from '../../mail/email-policy';
import { UserRegistrar } from '../../users/user-registrar';

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
    private readonly codes: EmailCodes,
  ) {}

  async execute({ body, meta }: RegisterUserCommand) {
    if (!this.options.bool('RegisterEnabled')) throw new ApiError('auth.register_disabled');
    if (!this.options.bool('PasswordRegisterEnabled'))
      throw new ApiError('auth.password_register_disabled');
    if (body.password2 !== undefined && body.password2 !== body.password)
      throw new ApiError('auth.passwords_differ');
    const email = body.email?.trim() ?? '';
    const verifying = this.options.bool('EmailVerificationEnabled');
    if (verifying && (!email || !body.verification_code))
      throw new ApiError('auth.email_verification_required');
    if (email) assertEmailAllowed(email, this.options);
    // The code stays valid until the registration succeeds (a taken name does not cost it); the
    // email's guard stops a second registration with the same code.
    if (verifying && !(await this.codes.check('verify', email, body.verification_code ?? '', meta)))
      throw new ApiError('auth.verification_code_invalid');
    const { userId, position } = await this.registrar.register(
      {
        username: body.username,
        password: body.password,
        email,
        emailVerified: verifying,
        role: Role.Common,
        affCode: body.aff_code?.trim() || undefined,
        source: 'register',
      },
      meta,
    );
    if (verifying) await this.codes.consume('verify', email, body.verification_code ?? '', meta);
    await this.readYourWrites.waitFor(position);
    return { userId };
  }
}
