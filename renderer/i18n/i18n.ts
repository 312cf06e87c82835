import { create } from 'zustand';
import { en } from './en';
import type { MessageKey, Messages } from './en';
import { ru } from './ru';
import { zh } from './zh';

export const locales = { en, ru, zh } as const satisfies Record<string, Messages>;
export type Locale = keyof typeof locales;

/** Picks the first of the OS/browser languages we speak, English otherwise. */
export function detectLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    if (base !== undefined && Object.hasOwn(locales, base)) return base as Locale;
  }
  return 'en';
}

export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const template = locales[locale][key];
  if (params === undefined) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

interface I18nState {
  readonly locale: Locale;
  setLocale(locale: Locale): void;
}

export const useI18nStore = create<I18nState>((set) => ({
  locale: detectLocale(typeof navigator === 'undefined' ? [] : navigator.languages),
  setLocale: (locale) => {
    document.documentElement.lang = locale;
    set({ locale });
  },
}));

/** The translate function for the current locale; components re-render when it changes. */
export function useT(): (key: MessageKey, params?: Record<string, string | number>) => string {
  const locale = useI18nStore((state) => state.locale);
  return (key, params) => translate(locale, key, params);
}
