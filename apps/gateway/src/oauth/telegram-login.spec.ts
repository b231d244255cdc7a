import { createHash, createHmac } from 'node:crypto';
import { ApiError } from '../shared/api-error';
import { signTelegramLogin, TELEGRAM_MAX_AGE_S, verifyTelegramLogin } from './telegram-login';

const TOKEN = '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const NOW = 1_700_000_000;

/** Telegram's algorithm written out again, independently of the module under test. */
function sign(fields: Record<string, string>): string {
  const check = Object.entries(fields)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  return createHmac('sha256', createHash('sha256').update(TOKEN).digest())
    .update(check)
    .digest('hex');
}

const fields = (over: Record<string, string> = {}) => ({
  id: '42',
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada',
  photo_url: 'https://t.me/i/userpic/320/ada.jpg',
  auth_date: String(NOW - 10),
  ...over,
});

const codeOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as ApiError).code;
  }
  return 'accepted';
};

describe('verifyTelegramLogin', () => {
  it('accepts data signed as Telegram documents, lang aside', () => {
    const data = fields();
    const user = verifyTelegramLogin({ ...data, hash: sign(data), lang: 'en' }, TOKEN, NOW);
    expect(user).toEqual({ id: '42', username: 'ada', displayName: 'Ada Lovelace' });
    expect(signTelegramLogin(data, TOKEN)).toBe(sign(data));
  });

  it('accepts upper-case hex and data without the optional fields', () => {
    const data = { id: '7', auth_date: String(NOW) };
    expect(verifyTelegramLogin({ ...data, hash: sign(data).toUpperCase() }, TOKEN, NOW).id).toBe(
      '7',
    );
  });

  it('refuses changed data, a wrong token, missing or malformed fields', () => {
    const data = fields();
    const hash = sign(data);
    expect(codeOf(() => verifyTelegramLogin({ ...data, id: '43', hash }, TOKEN, NOW))).toBe(
      'oauth.telegram_invalid',
    );
    expect(codeOf(() => verifyTelegramLogin({ ...data, hash }, 'other', NOW))).toBe(
      'oauth.telegram_invalid',
    );
    expect(codeOf(() => verifyTelegramLogin({ ...data, hash }, '', NOW))).toBe(
      'oauth.telegram_invalid',
    );
    expect(codeOf(() => verifyTelegramLogin(data, TOKEN, NOW))).toBe('oauth.telegram_invalid');
    expect(codeOf(() => verifyTelegramLogin({ ...data, hash: [hash] }, TOKEN, NOW))).toBe(
      'oauth.telegram_invalid',
    );
    expect(
      codeOf(() =>
        verifyTelegramLogin({ ...data, id: 'x', hash: sign({ ...data, id: 'x' }) }, TOKEN, NOW),
      ),
    ).toBe('oauth.telegram_invalid');
  });

  it('refuses data older than a day or dated in the future', () => {
    const old = fields({ auth_date: String(NOW - TELEGRAM_MAX_AGE_S - 1) });
    expect(codeOf(() => verifyTelegramLogin({ ...old, hash: sign(old) }, TOKEN, NOW))).toBe(
      'oauth.telegram_expired',
    );
    const edge = fields({ auth_date: String(NOW - TELEGRAM_MAX_AGE_S) });
    expect(codeOf(() => verifyTelegramLogin({ ...edge, hash: sign(edge) }, TOKEN, NOW))).toBe(
      'accepted',
    );
    const ahead = fields({ auth_date: String(NOW + 3600) });
    expect(codeOf(() => verifyTelegramLogin({ ...ahead, hash: sign(ahead) }, TOKEN, NOW))).toBe(
      'oauth.telegram_expired',
    );
  });
});
