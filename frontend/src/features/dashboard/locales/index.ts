import type { Locales } from '@/lib/locales';
import { dashboardEn } from './en';
import { dashboardZhCN } from './zh-cn';

/** The dashboard feature's texts, registered with the others in src/app/translations.ts. */
export const dashboardLocales = { 'zh-CN': dashboardZhCN, en: dashboardEn } satisfies Locales;
