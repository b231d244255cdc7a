import type { Locales } from '@/lib/locales';
import { channelsEn } from './en';
import { channelsZhCN } from './zh-cn';

/** The channels feature's texts, registered with the others in src/app/translations.ts. */
export const channelsLocales = { 'zh-CN': channelsZhCN, en: channelsEn } satisfies Locales;
