import type { Locales } from '@/lib/locales';
import { usersEn } from './en';
import { usersZhCN } from './zh-cn';

/** The users feature's texts, registered with the others in src/app/translations.ts. */
export const usersLocales = { 'zh-CN': usersZhCN, en: usersEn } satisfies Locales;
