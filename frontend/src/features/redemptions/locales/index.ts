import type { Locales } from '@/lib/locales';
import { redemptionsEn } from './en';
import { redemptionsZhCN } from './zh-cn';

/** The redemptions feature's texts, registered with the others in src/app/translations.ts. */
export const redemptionsLocales = { 'zh-CN': redemptionsZhCN, en: redemptionsEn } satisfies Locales;
