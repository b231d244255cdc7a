/** The language of an answer, chosen from the client's Accept-Language. */
export type Lang = 'zh-CN' | 'en';

/** The console's default: new-api's console, whose texts it mirrors, speaks Chinese first. */
export const CONSOLE_DEFAULT_LANG: Lang = 'zh-CN';
/**
 * The relay's default: its clients (the vendors' SDKs, CLIs, curl) seldom send Accept-Language
 * and their users read English, so an error without the header must not arrive in Chinese.
 */
export const RELAY_DEFAULT_LANG: Lang = 'en';

/** A language tag we answer in, if `tag` (lower case) names one. */
function supported(tag: string): Lang | undefined {
  if (tag.startsWith('zh')) return 'zh-CN';
  if (tag.startsWith('en')) return 'en';
  return undefined;
}

/** The q of an Accept-Language entry's parameters (`;q=0.5`); 1 when absent or unreadable. */
function weightOf(params: string): number {
  const match = /;\s*q\s*=\s*([0-9.]+)/i.exec(params);
  if (!match) return 1;
  const q = Number(match[1]);
  return Number.isFinite(q) ? q : 1;
}

/**
 * The supported language the client prefers most (highest q, the earlier one on a tie; q=0 is a
 * refusal), else `fallback`. Read once per request or per error, never per chunk.
 */
export function pickLang(
  acceptLanguage: string | undefined,
  fallback: Lang = CONSOLE_DEFAULT_LANG,
): Lang {
  if (!acceptLanguage) return fallback;
  let best: Lang | undefined;
  let bestWeight = 0;
  for (const entry of acceptLanguage.split(',')) {
    const semicolon = entry.indexOf(';');
    const tag = (semicolon < 0 ? entry : entry.slice(0, semicolon)).trim().toLowerCase();
    const lang = supported(tag);
    if (!lang) continue;
    const weight = semicolon < 0 ? 1 : weightOf(entry.slice(semicolon));
    if (weight > bestWeight) {
      best = lang;
      bestWeight = weight;
    }
  }
  return best ?? fallback;
}

/** The relay's language: as the console's, but English when the client names none we have. */
export function pickRelayLang(acceptLanguage: unknown): Lang {
  return pickLang(
    typeof acceptLanguage === 'string' ? acceptLanguage : undefined,
    RELAY_DEFAULT_LANG,
  );
}
