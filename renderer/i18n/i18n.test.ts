import { describe, expect, it } from 'vitest';
import { en } from './en';
import { detectLocale, locales, translate } from './i18n';

describe('i18n', () => {
  it('picks the first language we speak from the OS list', () => {
    expect(detectLocale(['de-DE', 'ru-RU', 'en'])).toBe('ru');
    expect(detectLocale(['zh-CN'])).toBe('zh');
    expect(detectLocale(['fr'])).toBe('en');
    expect(detectLocale([])).toBe('en');
  });

  it('fills named parameters and leaves unknown ones visible', () => {
    expect(translate('en', 'app.loadFailed', { message: 'boom' })).toBe('Familiar could not load: boom');
    expect(translate('en', 'app.loadFailed')).toBe('Familiar could not load: {message}');
  });

  it('translates every key into every language, keeping the same parameters', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [locale, messages] of Object.entries(locales)) {
      for (const [key, text] of Object.entries(en)) {
        const translated = messages[key as keyof typeof en];
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(params(translated), `${locale} ${key}`).toEqual(params(text));
      }
    }
  });
});
