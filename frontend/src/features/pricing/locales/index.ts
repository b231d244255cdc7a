import type { Locales } from '@/lib/locales';
import { pricingEn } from './en';
import { pricingZhCN } from './zh-cn';

/** The pricing feature's texts, registered with the others in src/app/translations.ts. */
export const pricingLocales = { 'zh-CN': pricingZhCN, en: pricingEn } satisfies Locales;
