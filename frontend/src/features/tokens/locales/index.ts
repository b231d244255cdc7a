import type { Locales } from '@/lib/locales';
import { tokensEn } from './en';
import { tokensZhCN } from './zh-cn';

/** The tokens feature's texts, registered with the others in src/app/translations.ts. */
export const tokensLocales = { 'zh-CN': tokensZhCN, en: tokensEn } satisfies Locales;
