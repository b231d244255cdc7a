import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';
import { zhCN } from '../locales/zh-cn';
import { StorageKey } from './storage';

export const LANGUAGES = [
  { code: 'zh-CN', label: '简体中文' },
  { code: 'en', label: 'English' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const i18n = i18next.createInstance();

// Before init: init detects the stored or browser language and announces it at once, so a listener
// added afterwards misses the first language and <html lang> keeps index.html's zh-CN.
i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
    supportedLngs: ['zh-CN', 'en'],
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
    detection: {
      // A chosen language is remembered; otherwise the browser's decides.
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: StorageKey.language,
      caches: ['localStorage'],
      convertDetectedLanguage: (lng: string) =>
        lng.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en',
    },
  });
