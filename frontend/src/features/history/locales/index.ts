import type { Locales } from '@/lib/locales';
import { historyEn } from './en';
import { historyZhCN } from './zh-cn';

/** The history feature's texts, registered with the others in src/app/translations.ts. */
export const historyLocales = { 'zh-CN': historyZhCN, en: historyEn } satisfies Locales;
