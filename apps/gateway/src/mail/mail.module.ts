import { Module } from '@nestjs/common';
import { UserRegistrationModule } from '../users/user-registration.module';
import { BindEmailHandler } from './commands/bind-email.handler';
import { ResetPasswordHandler } from './commands/reset-password.handler';
import { SendPasswordResetHandler } from './commands/send-password-reset.handler';
import { SendVerificationCodeHandler } from './commands/send-verification-code.handler';
import { MailController } from './mail.controller';
import { MailCoreModule } from './mail-core.module';

/** Verification codes, password reset by mail and the email bind. */
@Module({
  imports: [MailCoreModule, UserRegistrationModule],
  controllers: [MailController],
  providers: [
    SendVerificationCodeHandler,
    SendPasswordResetHandler,
    ResetPasswordHandler,
    BindEmailHandler,
  ],
})
export class MailModule {}
