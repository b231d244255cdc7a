import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isEmailAddress, normalizeEmail } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { OptionsCache } from '../../options/options.cache';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import { EmailCodes } from '../email-codes';
import { accountByVerifiedEmail } from '../email-accounts';
import { resetLink, resetMail } from '../mail-content';
import { Mailer } from '../mailer';

export class SendPasswordResetCommand extends Command<void> {
  constructor(
    readonly email: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * `GET /api/reset_password`: mails `${ServerAddress}/user/reset?email=…&token=…` to the account that
 * verified this address. The link is built from the configured address only, never from the
 * request's Host header (which a caller chooses). Appends nothing.
 */
@CommandHandler(SendPasswordResetCommand)
export class SendPasswordResetHandler implements ICommandHandler<SendPasswordResetCommand> {
  constructor(
    private readonly codes: EmailCodes,
    private readonly mailer: Mailer,
    private readonly options: OptionsCache,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ email: raw, meta }: SendPasswordResetCommand): Promise<void> {
    const email = normalizeEmail(raw);
    if (!email) throw new ApiError('common.invalid_params');
    if (!isEmailAddress(email)) throw new ApiError('auth.email_invalid');
    const server = this.options.get('ServerAddress');
    if (!server) throw new ApiError('mail.server_address_required');
    if (!(await accountByVerifiedEmail(this.readStore, email)))
      throw new ApiError('mail.email_not_registered');
    this.mailer.assertConfigured();
    const token = EmailCodes.newToken();
    await this.codes.issue('reset', email, token, meta);
    try {
      await this.mailer.send(
        resetMail(
          email,
          resetLink(server, email, token),
          this.options.get('SystemName'),
          this.codes.validMinutes,
          meta.lang,
        ),
      );
    } catch (error) {
      await this.codes.withdraw('reset', email, token, meta);
      throw error;
    }
  }
}
