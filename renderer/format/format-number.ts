import { useI18nStore } from '../i18n/i18n';

/** Formats a number the way the UI's language writes it (20,000 in English, 20.000 in German). */
export function useFormatNumber(): (value: number) => string {
  const locale = useI18nStore((state) => state.locale);
  return (value) => new Intl.NumberFormat(locale).format(value);
}
