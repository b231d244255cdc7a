import type { Locales } from '@/lib/locales';
import { tasksEn } from './en';
import { tasksZhCN } from './zh-cn';

/** The tasks feature's texts, registered with the others in src/app/translations.ts. */
export const tasksLocales = { 'zh-CN': tasksZhCN, en: tasksEn } satisfies Locales;
