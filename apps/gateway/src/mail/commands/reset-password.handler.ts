import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normalizeEmail, userDecider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { randomAlphanumeric } from '../../infrastructure/random-text';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import { EmailCodes } from '../email-codes';
import { accountByVerifiedEmail } from '../email-accounts';

/** Within the password rules (8 to 20 characters); 62^12 is beyond guessing. */
export const RESET_PASSWORD_LENGTH = 12;

export class ResetPasswordCommand extends Command<string> {
  constructor(
    readonly email: string,
    readonly token: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * `POST /api/user/reset`: the mailed link's token, once, for a new random password. The event
 * carries only its argon2 hash (UserPasswordChanged, reason 'reset': every session and the access
 * token end); the password itself is only in the answer.
 */
@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand> {
  constructor(
    private readonly codes: EmailCodes,
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ email: raw, token, meta }: ResetPasswordCommand): Promise<string> {
    const email = normalizeEmail(raw);
    if (!email || !token) throw new ApiError('common.invalid_params');
    // Checked and spent in one append with the stream's expected revision: two requests with one
    // link cannot both pass, whichever processes they reach.
    if (!(await this.codes.consume('reset', email, token, meta)))
      throw new ApiError('mail.reset_link_invalid');
    const user = await accountByVerifiedEmail(this.readStore, email);
    if (!user) throw new ApiError('mail.email_not_registered');
    const password = randomAlphanumeric(RESET_PASSWORD_LENGTH);
    const { position } = await this.store.execute(
      `user-${user.id}`,
      userDecider,
      { type: 'ChangePassword', passwordHash: await this.hasher.hash(password), reason: 'reset' },
      meta,
    );
    await this.readYourWrites.waitFor(position);
    return password;
  }
}
