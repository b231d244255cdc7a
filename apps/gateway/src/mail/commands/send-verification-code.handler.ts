import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normalizeEmail } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { assertEmailAllowed } from '../email-policy';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { OptionsCache } from '../../options/options.cache';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import { EmailCodes } from '../email-codes';
import { isEmailTaken } from '../email-accounts';
import { verificationMail } from '../mail-content';
import { Mailer } from '../mailer';

export class SendVerificationCodeCommand extends Command<void> {
  constructor(
    readonly email: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * `GET /api/verification`: a 6-digit code for registration or the email bind, mailed to an address
 * the whitelist and alias rules allow and no account holds verified. Records the code (its keyed
 * hash, EmailCodes) only once the call could send it, and withdraws it when the mail fails.
 */
@CommandHandler(SendVerificationCodeCommand)
export class SendVerificationCodeHandler implements ICommandHandler<SendVerificationCodeCommand> {
  constructor(
    private readonly codes: EmailCodes,
    private readonly mailer: Mailer,
    private readonly options: OptionsCache,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ email: raw, meta }: SendVerificationCodeCommand): Promise<void> {
    const email = normalizeEmail(raw);
    if (!email) throw new ApiError('common.invalid_params');
    assertEmailAllowed(email, this.options);
    if (await isEmailTaken(this.readStore, email)) throw new ApiError('mail.email_taken');
    this.mailer.assertConfigured();
    const code = EmailCodes.newCode();
    await this.codes.issue('verify', email, code, meta);
    try {
      await this.mailer.send(
        verificationMail(
          email,
          code,
          this.options.get('SystemName'),
          this.codes.validMinutes,
          meta.lang,
        ),
      );
    } catch (error) {
      await this.codes.withdraw('verify', email, code, meta);
      throw error;
    }
  }
}
