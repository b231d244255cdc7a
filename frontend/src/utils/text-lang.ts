/**
 * The `lang` of text the console shows but did not write (option values, group descriptions an
 * administrator typed): Chinese when it holds Chinese characters, so screen readers and the
 * English console's checks know it is data, not an untranslated label.
 */
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

export function textLang(text: string): 'zh-CN' | undefined {
  return CJK.test(text) ? 'zh-CN' : undefined;
}
