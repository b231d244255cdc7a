import type { Locales } from '@/lib/locales';
import { logsEn } from './en';
import { logsZhCN } from './zh-cn';

/** The logs feature's texts, registered with the others in src/app/translations.ts. */
export const logsLocales = { 'zh-CN': logsZhCN, en: logsEn } satisfies Locales;
