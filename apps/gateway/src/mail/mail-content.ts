import type { Lang } from '../shared/i18n/messages';
import { translate } from '../shared/i18n/messages';
import type { OutgoingMail } from './mailer';

/** HTML-escapes text put into a mail body (the system name is an admin's free text). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function verificationMail(
  to: string,
  code: string,
  system: string,
  minutes: number,
  lang: Lang,
): OutgoingMail {
  return {
    to,
    subject: translate('mail.verification_subject', { system }, lang),
    html: translate('mail.verification_body', { system: escapeHtml(system), code, minutes }, lang),
  };
}

export function resetMail(
  to: string,
  link: string,
  system: string,
  minutes: number,
  lang: Lang,
): OutgoingMail {
  return {
    to,
    subject: translate('mail.reset_subject', { system }, lang),
    html: translate(
      'mail.reset_body',
      { system: escapeHtml(system), link: escapeHtml(link), minutes },
      lang,
    ),
  };
}

/** `${ServerAddress}/user/reset?email=…&token=…`: the console's reset confirmation page. */
export function resetLink(serverAddress: string, email: string, token: string): string {
  const query = new URLSearchParams({ email, token });
  return `${serverAddress.replace(/\/+$/, '')}/user/reset?${query.toString()}`;
}
