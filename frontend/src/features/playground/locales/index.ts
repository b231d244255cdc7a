import type { Locales } from '@/lib/locales';
import { playgroundEn } from './en';
import { playgroundZhCN } from './zh-cn';

/** The playground feature's texts, registered with the others in src/app/translations.ts. */
export const playgroundLocales = { 'zh-CN': playgroundZhCN, en: playgroundEn } satisfies Locales;
