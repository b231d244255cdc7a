import { COMMON_MESSAGES } from './common.messages';
import { CONSOLE_DEFAULT_LANG, type Lang } from './lang';
import type { MessageTable } from './message-table';
import { VALIDATION_MESSAGES } from './validation.messages';

export type { MessageTable } from './message-table';
export { type Lang, pickLang, pickRelayLang, RELAY_DEFAULT_LANG } from './lang';

/**
 * The texts the server answers with, by code. Each feature keeps its own table beside its code;
 * the composition root registers them all at start-up (registerServerMessages), so this folder
 * never imports a feature. Only the texts of this folder are here from the start.
 */
const catalogue = new Map<string, MessageTable[string]>();

/** Adds texts to the catalogue; a code registered twice keeps its last text. */
export function registerMessages(...tables: readonly MessageTable[]): void {
  for (const table of tables)
    for (const [code, text] of Object.entries(table)) catalogue.set(code, text);
}

/** Whether a text is registered under `code`. */
export function hasMessage(code: string): boolean {
  return catalogue.has(code);
}

registerMessages(COMMON_MESSAGES, VALIDATION_MESSAGES);

/** A text by code, translated when the answer's language is known (a param may be one, or a list). */
export interface Message {
  readonly code: string;
  readonly params?: MessageParams;
}

export type MessageParam = string | number | Message | readonly Message[];
export type MessageParams = Readonly<Record<string, MessageParam>>;

const LIST_SEPARATOR: Record<Lang, string> = { 'zh-CN': '；', en: '; ' };

function render(value: MessageParam, lang: Lang): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value))
    return (value as readonly Message[])
      .map((item) => translate(item.code, item.params, lang))
      .join(LIST_SEPARATOR[lang]);
  const message = value as Message;
  return translate(message.code, message.params, lang);
}

export function translate(
  code: string,
  params: MessageParams = {},
  lang: Lang = CONSOLE_DEFAULT_LANG,
): string {
  const template = catalogue.get(code)?.[lang] ?? code;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? render(params[name]!, lang) : whole,
  );
}
