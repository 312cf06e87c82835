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

/** `{count, plural, one {# file} few {# файла} other {# files}}`: ICU's plural, the one part we need. */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/**
 * Picks the form the language's plural rules (Intl.PluralRules) ask for: Russian has one/few/many
 * (1 строка, 2 строки, 5 строк), Chinese none, English one/other. '#' is the number, localized.
 */
function pluralize(locale: Locale, template: string, params: Record<string, string | number>): string {
  return template.replace(PLURAL, (whole, name: string, body: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const count = Number(params[name]);
    const forms = new Map([...body.matchAll(PLURAL_FORM)].map((match) => [match[1], match[2] ?? '']));
    const form =
      forms.get(`=${count}`) ?? forms.get(new Intl.PluralRules(locale).select(count)) ?? forms.get('other') ?? '';
    return form.replaceAll('#', new Intl.NumberFormat(locale).format(count));
  });
}

export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const template = locales[locale][key];
  if (params === undefined) return template;
  return pluralize(locale, template, params).replace(/\{(\w+)\}/g, (whole, name: string) =>
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
