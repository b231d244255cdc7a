import { defaultOptionValues } from '@tollgate/domain';
import type { OptionsCache } from '../options/options.cache';
import { resetLink, resetMail, verificationMail } from './mail-content';
import { DEFAULT_SMTP_PORT, Mailer, describe as describeError, smtpSettings } from './mailer';
import { registerMessages } from '../shared/i18n/messages';
import { MAIL_MESSAGES } from './mail.messages';

registerMessages(MAIL_MESSAGES);

function optionsWith(values: Record<string, string>): OptionsCache {
  const all: Record<string, string> = { ...defaultOptionValues(), ...values };
  return {
    get: (key: string) => all[key] ?? '',
    bool: (key: string) => all[key] === 'true',
    number: (key: string) => Number(all[key] ?? 0) || 0,
  } as unknown as OptionsCache;
}

describe('smtpSettings', () => {
  it('defaults to port 587 without TLS, From falling back to the account', () => {
    const s = smtpSettings(
      optionsWith({ SMTPServer: ' smtp.example.com ', SMTPAccount: 'me@x.io' }),
    );
    expect(s).toMatchObject({
      host: 'smtp.example.com',
      port: DEFAULT_SMTP_PORT,
      secure: false,
      from: 'me@x.io',
    });
  });

  it('port 465 forces TLS; SMTPSSLEnabled asks for it on any port; SMTPFrom wins', () => {
    expect(smtpSettings(optionsWith({ SMTPPort: '465' })).secure).toBe(true);
    expect(smtpSettings(optionsWith({ SMTPPort: '2525', SMTPSSLEnabled: 'true' })).secure).toBe(
      true,
    );
    expect(
      smtpSettings(optionsWith({ SMTPAccount: 'me@x.io', SMTPFrom: 'noreply@x.io' })).from,
    ).toBe('noreply@x.io');
  });
});

describe('Mailer', () => {
  it('refuses to send without a server or a sender', async () => {
    const mailer = new Mailer(optionsWith({}), { mail: { smtpTimeoutMs: 100, codeTtlMs: 1 } });
    await expect(mailer.send({ to: 'a@b.io', subject: 's', html: 'h' })).rejects.toMatchObject({
      code: 'mail.smtp_not_configured',
    });
  });

  it('fails within its timeout against a server that never answers, without the token in the log', async () => {
    const net = await import('node:net');
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const mailer = new Mailer(
      optionsWith({
        SMTPServer: '127.0.0.1',
        SMTPPort: String(port),
        SMTPAccount: 'me@x.io',
        SMTPToken: 'token-never-logged',
      }),
      { mail: { smtpTimeoutMs: 200, codeTtlMs: 1 } },
    );
    const warnings: string[] = [];
    (mailer as unknown as { logger: { warn: (m: string) => void } }).logger = {
      warn: (m) => warnings.push(m),
    };
    const started = Date.now();
    await expect(mailer.send({ to: 'a@b.io', subject: 's', html: 'h' })).rejects.toMatchObject({
      code: 'mail.send_failed',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ETIMEDOUT');
    expect(warnings[0]).not.toContain('token-never-logged');
    await new Promise((r) => silent.close(r));
  });

  it('describes an error by code, reply and command only', () => {
    expect(
      describeError({
        code: 'EAUTH',
        responseCode: 535,
        command: 'AUTH PLAIN c2VjcmV0',
        message: 'secret',
      }),
    ).toBe('EAUTH, reply 535, at AUTH');
    expect(describeError(null)).toBe('error');
  });
});

describe('mail content', () => {
  it('puts the code, the validity and the escaped system name into the verification mail', () => {
    const mail = verificationMail('a@b.io', '012345', '<Gate>', 10, 'zh-CN');
    expect(mail.subject).toBe('<Gate>邮箱验证邮件');
    expect(mail.html).toContain('<strong>012345</strong>');
    expect(mail.html).toContain('&lt;Gate&gt;');
    expect(mail.html).toContain('10 分钟');
    expect(verificationMail('a@b.io', '1', 'G', 10, 'en').subject).toBe('G email verification');
  });

  it('links the console reset page under the server address, query-encoded', () => {
    const link = resetLink('https://gw.example.com/', 'a+b@x.io', 'tok_en-1');
    expect(link).toBe('https://gw.example.com/user/reset?email=a%2Bb%40x.io&token=tok_en-1');
    const mail = resetMail('a+b@x.io', link, 'G', 10, 'zh-CN');
    // HTML-escaped in the attribute, as it must be; mail clients open the same URL.
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
  });
});
