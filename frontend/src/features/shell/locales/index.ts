import type { Locales } from '@/lib/locales';
import { shellEn } from './en';
import { shellZhCN } from './zh-cn';

/** The shell feature's texts, registered with the others in src/app/translations.ts. */
export const shellLocales = { 'zh-CN': shellZhCN, en: shellEn } satisfies Locales;
