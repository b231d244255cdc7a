/** The console's languages; zh-CN first, as the language the texts are written in first. */
export const LANGUAGES = [
  { code: 'zh-CN', label: '简体中文' },
  { code: 'en', label: 'English' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** One feature's texts in every language: the zh-CN object gives the keys, `en` mirrors them. */
export type Locales<Texts extends object = object> = Record<LanguageCode, Texts>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;

/** The texts of all merged features as one plain object type (the i18n key set). */
export type MergedTexts<L extends readonly Locales[]> = {
  [K in keyof UnionToIntersection<L[number]['zh-CN']>]: UnionToIntersection<L[number]['zh-CN']>[K];
};

/**
 * Puts the features' texts side by side, language by language. Each feature owns its top-level
 * keys; a key claimed twice would silently hide one feature's texts, so it throws instead.
 */
export function mergeLocales<const L extends readonly Locales[]>(
  ...locales: L
): Locales<MergedTexts<L>> {
  const merge = (code: LanguageCode) => {
    const texts: Record<string, unknown> = {};
    for (const feature of locales) {
      for (const [key, value] of Object.entries(feature[code])) {
        if (key in texts) throw new Error(`Two features register the texts under "${key}"`);
        texts[key] = value;
      }
    }
    return texts as MergedTexts<L>;
  };
  return { 'zh-CN': merge('zh-CN'), en: merge('en') };
}
