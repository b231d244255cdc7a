import type { Locales } from '@/lib/locales';
import { sharedEn } from './en';
import { sharedZhCN } from './zh-cn';

/** Texts every feature may use (`common`, `errors`, `notFound`), registered like a feature's. */
export const sharedLocales = { 'zh-CN': sharedZhCN, en: sharedEn } satisfies Locales;
