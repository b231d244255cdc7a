import type { Locales } from '@/lib/locales';
import { chatEn } from './en';
import { chatZhCN } from './zh-cn';

/** The chat feature's texts, registered with the others in src/app/translations.ts. */
export const chatLocales = { 'zh-CN': chatZhCN, en: chatEn } satisfies Locales;
