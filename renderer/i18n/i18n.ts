import { create } from 'zustand';
import { en } from './en';
import type { MessageKey, Messages } from './en';
import { ru } from './ru';
import { zh } from './zh';
import { formatMessage } from '../../shared/i18n/format';
import { detectLocale } from '../../shared/i18n/locale';
import type { Locale } from '../../shared/i18n/locale';

export const locales = { en, ru, zh } as const satisfies Record<Locale, Messages>;
export type { Locale };
export { detectLocale };

/** Whether the dictionaries have this message (keys are checked against en; the others must match it). */
export const hasMessage = (key: string): key is MessageKey => Object.hasOwn(en, key);

export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  return formatMessage(locale, locales[locale][key], params);
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
