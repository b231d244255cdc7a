import type { Locales } from '@/lib/locales';
import { walletEn } from './en';
import { walletZhCN } from './zh-cn';

/** The wallet feature's texts, registered with the others in src/app/translations.ts. */
export const walletLocales = { 'zh-CN': walletZhCN, en: walletEn } satisfies Locales;
