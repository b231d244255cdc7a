import type { Locales } from '@/lib/locales';
import { authEn } from './en';
import { authZhCN } from './zh-cn';
import { oauthEn } from './oauth.en';
import { oauthZhCN } from './oauth.zh-cn';

/** The auth feature's texts, registered with the others in src/app/translations.ts. */
export const authLocales = {
  'zh-CN': { ...authZhCN, ...oauthZhCN },
  en: { ...authEn, ...oauthEn },
} satisfies Locales;
