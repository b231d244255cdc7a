import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../shared/api-error';

/** Widget data older than this is refused: a day, as Telegram's own examples check. */
export const TELEGRAM_MAX_AGE_S = 24 * 3600;
/** Clocks differ a little; data dated further ahead than this is refused too. */
export const TELEGRAM_CLOCK_SKEW_S = 5 * 60;

/**
 * Fields that are not Telegram's and take no part in the signature: `lang` is the console's
 * addition, `hash` is the signature itself.
 */
const UNSIGNED = new Set(['hash', 'lang']);
const MAX_FIELDS = 16;
const MAX_VALUE_LENGTH = 512;

export interface TelegramUser {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
}

/**
 * Checks the login widget's data the way Telegram documents it: the data-check-string is every
 * received field but `hash`, as `key=value` sorted by key and joined by newlines; its HMAC-SHA256
 * keyed with SHA-256(bot token) must equal `hash` (hex). Then `auth_date` must be recent.
 */
export function verifyTelegramLogin(
  query: Readonly<Record<string, unknown>>,
  botToken: string,
  nowS: number,
): TelegramUser {
  const entries = Object.entries(query);
  if (!botToken || entries.length > MAX_FIELDS) throw new ApiError('oauth.telegram_invalid');
  const fields: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH)
      throw new ApiError('oauth.telegram_invalid');
    fields[key] = value;
  }
  const hash = fields['hash'] ?? '';
  const id = fields['id'] ?? '';
  const authDate = fields['auth_date'] ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hash) || !/^\d{1,20}$/.test(id) || !/^\d{1,12}$/.test(authDate))
    throw new ApiError('oauth.telegram_invalid');
  const dataCheckString = Object.keys(fields)
    .filter((key) => !UNSIGNED.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(dataCheckString).digest();
  const given = Buffer.from(hash, 'hex');
  if (!timingSafeEqual(expected, given)) throw new ApiError('oauth.telegram_invalid');
  const age = nowS - Number(authDate);
  if (age > TELEGRAM_MAX_AGE_S || age < -TELEGRAM_CLOCK_SKEW_S)
    throw new ApiError('oauth.telegram_expired');
  const name = [fields['first_name'], fields['last_name']].filter(Boolean).join(' ');
  return { id, username: fields['username'] ?? '', displayName: name };
}

/** The widget's signature over `fields` (what Telegram computes): for tests and mocks. */
export function signTelegramLogin(fields: Readonly<Record<string, string>>, botToken: string) {
  const dataCheckString = Object.keys(fields)
    .filter((key) => !UNSIGNED.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return createHmac('sha256', secret).update(dataCheckString).digest('hex');
}
