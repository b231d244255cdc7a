import type { Locales } from '@/lib/locales';
import { homeEn } from './en';
import { homeZhCN } from './zh-cn';

/** The home feature's texts, registered with the others in src/app/translations.ts. */
export const homeLocales = { 'zh-CN': homeZhCN, en: homeEn } satisfies Locales;
