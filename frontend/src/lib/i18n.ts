import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Locales } from './locales';
import { StorageKey } from './storage';

export const i18n = i18next.createInstance();

// Before init: init detects the stored or browser language and announces it at once, so a listener
// added afterwards misses the first language and <html lang> keeps index.html's zh-CN.
i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

/**
 * Starts i18n with the texts the app gathered from every feature (src/app/translations.ts), before
 * the first render.
 */
export function startI18n(translations: Locales): void {
  void i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: {
        'zh-CN': { translation: translations['zh-CN'] },
        en: { translation: translations.en },
      },
      supportedLngs: LANGUAGES.map((language) => language.code),
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
}
