import type { Locales } from '@/lib/locales';
import { setupEn } from './en';
import { setupZhCN } from './zh-cn';

/** The setup feature's texts, registered with the others in src/app/translations.ts. */
export const setupLocales = { 'zh-CN': setupZhCN, en: setupEn } satisfies Locales;
