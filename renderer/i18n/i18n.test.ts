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

  it("chooses plural forms by each language's rules, with the number localized", () => {
    const lines = (locale: 'en' | 'ru' | 'zh', count: number) => translate(locale, 'tool.diffCut', { count });
    expect([1, 2, 1000].map((count) => lines('en', count))).toEqual([
      '… 1 more line',
      '… 2 more lines',
      '… 1,000 more lines',
    ]);
    expect([1, 3, 5, 21, 22, 11].map((count) => lines('ru', count))).toEqual([
      '… ещё 1 строка',
      '… ещё 3 строки',
      '… ещё 5 строк',
      '… ещё 21 строка',
      '… ещё 22 строки',
      '… ещё 11 строк',
    ]);
    expect(lines('zh', 2)).toBe('… 还有 2 行');
    expect(translate('en', 'tool.diffStats', { added: 1, removed: 4 })).toBe('1 line added, 4 removed');
  });

  it('translates every key into every language, keeping the same parameters', () => {
    // A parameter is `{name}` or the head of a plural, `{name, plural, …}`; each counted once.
    const params = (text: string) =>
      [...new Set([...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((match) => match[1]))].sort();
    for (const [locale, messages] of Object.entries(locales)) {
      for (const [key, text] of Object.entries(en)) {
        const translated = messages[key as keyof typeof en];
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(params(translated), `${locale} ${key}`).toEqual(params(text));
      }
    }
  });
});
