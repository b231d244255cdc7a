import { Module } from '@nestjs/common';
import { EmailCodes } from './email-codes';
import { Mailer } from './mailer';

/** The mailer and the mailed codes (kept in the log), shared by the mail endpoints and registration. */
@Module({ providers: [Mailer, EmailCodes], exports: [Mailer, EmailCodes] })
export class MailCoreModule {}
