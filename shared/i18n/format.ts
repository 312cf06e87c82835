import type { Locale } from './locale';

/** `{count, plural, one {# file} few {# файла} other {# files}}`: ICU's plural, the one part we need. */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * Picks the form the language's plural rules (Intl.PluralRules) ask for: Russian has one/few/many
 * (1 строка, 2 строки, 5 строк), Chinese none, English one/other. '#' is the number, localized.
 */
function pluralize(locale: Locale, template: string, params: MessageParams): string {
  return template.replace(PLURAL, (whole, name: string, body: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const count = Number(params[name]);
    const forms = new Map([...body.matchAll(PLURAL_FORM)].map((match) => [match[1], match[2] ?? '']));
    const form =
      forms.get(`=${count}`) ?? forms.get(new Intl.PluralRules(locale).select(count)) ?? forms.get('other') ?? '';
    return form.replaceAll('#', new Intl.NumberFormat(locale).format(count));
  });
}

/** Fills `{name}` parameters and plural forms; unknown parameters stay visible, so a gap shows. */
export function formatMessage(locale: Locale, template: string, params?: MessageParams): string {
  if (params === undefined) return template;
  return pluralize(locale, template, params).replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
