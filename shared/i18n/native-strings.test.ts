import { describe, expect, it } from 'vitest';
import { chooseLocale } from './locale';
import { nativeEn, nativeLocales, nativeText } from './native-strings';

describe('the native strings', () => {
  it('translate every key into every language, keeping the same parameters', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [locale, messages] of Object.entries(nativeLocales)) {
      for (const [key, text] of Object.entries(nativeEn)) {
        const translated = messages[key as keyof typeof nativeEn];
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(params(translated), `${locale} ${key}`).toEqual(params(text));
      }
    }
  });

  it('fill their parameters', () => {
    expect(nativeText('ru')('menu.quit', { app: 'Familiar' })).toBe('Завершить Familiar');
    expect(nativeText('en')('startup.logFile', { file: '/l' })).toBe('Details are in the log file:\n/l');
  });

  it("follow the setting, or the system's first language we speak", () => {
    expect(chooseLocale('zh', ['ru-RU'])).toBe('zh');
    expect(chooseLocale('system', ['de-DE', 'ru-RU'])).toBe('ru');
    expect(chooseLocale('system', ['de-DE'])).toBe('en');
  });
});
