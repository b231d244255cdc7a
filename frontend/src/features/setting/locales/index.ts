import type { Locales } from '@/lib/locales';
import { optionsEn } from './en';
import { optionsZhCN } from './zh-cn';
import { settingEn } from './setting.en';
import { settingZhCN } from './setting.zh-cn';

/** The setting feature's texts, registered with the others in src/app/translations.ts. */
export const settingLocales = {
  'zh-CN': { ...optionsZhCN, ...settingZhCN },
  en: { ...optionsEn, ...settingEn },
} satisfies Locales;
