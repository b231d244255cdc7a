import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as Nodemailer from 'nodemailer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly html: string;
}

/** SMTP's default port; 465 is implicit TLS whatever SMTPSSLEnabled says. */
export const DEFAULT_SMTP_PORT = 587;
const IMPLICIT_TLS_PORT = 465;

/** What the transport is built from, read from the options at send time (never cached). */
export function smtpSettings(options: OptionsCache) {
  const host = options.get('SMTPServer').trim();
  const account = options.get('SMTPAccount').trim();
  const port = options.number('SMTPPort') || DEFAULT_SMTP_PORT;
  return {
    host,
    port,
    secure: port === IMPLICIT_TLS_PORT || options.bool('SMTPSSLEnabled'),
    account,
    token: options.get('SMTPToken'),
    from: options.get('SMTPFrom').trim() || account,
  };
}

/**
 * Sends one mail through the SMTP server of the options. A failure is logged with nodemailer's
 * error code, the server's reply code and the SMTP command (never SMTPToken, never the mail's
 * content, which holds codes and links) and answered with a clear message.
 */
@Injectable()
export class Mailer {
  private readonly logger = new Logger('Mailer');

  constructor(
    private readonly options: OptionsCache,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'mail'>,
  ) {}

  /**
   * Refuses at once when no SMTP server is set: callers check before they record a code, so a
   * call that can send nothing changes nothing.
   */
  assertConfigured(): void {
    const smtp = smtpSettings(this.options);
    if (!smtp.host || !smtp.from) throw new ApiError('mail.smtp_not_configured');
  }

  async send(mail: OutgoingMail): Promise<void> {
    this.assertConfigured();
    const smtp = smtpSettings(this.options);
    const timeout = this.config.mail.smtpTimeoutMs;
    // Loaded on the first mail: most gateways never send one (~12 MiB less at start-up).
    const { createTransport }: typeof Nodemailer = await import('nodemailer');
    const transport = createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.account ? { user: smtp.account, pass: smtp.token } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
      logger: false,
      debug: false,
    });
    try {
      await transport.sendMail({
        from: { name: this.options.get('SystemName'), address: smtp.from },
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
      });
    } catch (error) {
      this.logger.warn(
        `mail to @${mail.to.split('@').pop() ?? ''} via ${smtp.host}:${smtp.port} failed: ${describe(error)}`,
      );
      throw new ApiError('mail.send_failed');
    } finally {
      transport.close();
    }
  }
}

/** nodemailer's code (EAUTH, ECONNECTION, ETIMEDOUT…), the reply code and the command only. */
export function describe(error: unknown): string {
  const { code, responseCode, command } = (error ?? {}) as Record<string, unknown>;
  const parts = [
    typeof code === 'string' ? code : 'error',
    typeof responseCode === 'number' ? `reply ${responseCode}` : '',
    typeof command === 'string' ? `at ${command.split(' ')[0]}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}
