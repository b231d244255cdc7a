import { randomInt } from 'node:crypto';
import {
  DISPLAY_NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  assertValidDisplayName,
  type ExternalProvider,
} from '@tollgate/domain';

const NOT_USERNAME = /[^A-Za-z0-9_.-]/g;
const NOT_DISPLAY = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;
const SUFFIX_ATTEMPTS = 5;

const digits = (n: number) => String(randomInt(10 ** (n - 1), 10 ** n));

/**
 * Usernames to try, in order, for a user registered through a provider: the provider's login (made
 * to fit the username rules), then that login with a random suffix, then `<provider>_<digits>`.
 */
export function usernameCandidates(provider: ExternalProvider, login: string): string[] {
  const base = login.normalize('NFKC').replace(NOT_USERNAME, '').slice(0, USERNAME_MAX_LENGTH);
  const candidates: string[] = [];
  if (base) {
    candidates.push(base);
    const stem = base.slice(0, USERNAME_MAX_LENGTH - 5);
    for (let i = 0; i < SUFFIX_ATTEMPTS; i += 1) candidates.push(`${stem}_${digits(4)}`);
  }
  for (let i = 0; i < SUFFIX_ATTEMPTS; i += 1) candidates.push(`${provider}_${digits(8)}`);
  return candidates;
}

/** The provider's name for the user as a valid display name, or '' (then the username is used). */
export function displayNameFrom(name: string): string {
  const cleaned = [...name.normalize('NFKC').replace(NOT_DISPLAY, '').trim()]
    .slice(0, DISPLAY_NAME_MAX_LENGTH)
    .join('')
    .trim();
  try {
    assertValidDisplayName(cleaned);
    return cleaned;
  } catch {
    return '';
  }
}
