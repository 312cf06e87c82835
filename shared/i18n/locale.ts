/** The languages Familiar speaks, in the page and in the native menus and dialogs alike. */
export const localeIds = ['en', 'ru', 'zh'] as const;
export type Locale = (typeof localeIds)[number];

/** Picks the first of the OS/browser languages we speak, English otherwise. */
export function detectLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    if (base !== undefined && (localeIds as readonly string[]).includes(base)) return base as Locale;
  }
  return 'en';
}

/** The language setting ('system' or a locale) made concrete with the system's preferred languages. */
export function chooseLocale(setting: Locale | 'system', systemLanguages: readonly string[]): Locale {
  return setting === 'system' ? detectLocale(systemLanguages) : setting;
}
