import { describe, expect, it, vi } from 'vitest';
import { createEventHub } from '../../platform/ipc/event-hub';
import { settingsSchema } from '../../../shared/settings';
import { createNativeLanguage, followLanguageSetting } from './native-language';

const withLanguage = (language: 'system' | 'en' | 'ru' | 'zh') => settingsSchema.parse({ ui: { language } });

describe('the native language', () => {
  it("starts with the system's first language we speak", () => {
    expect(createNativeLanguage(() => ['de-DE', 'zh-CN']).locale()).toBe('zh');
    expect(createNativeLanguage(() => ['fr']).t('menu.file')).toBe('File');
  });

  it('follows the setting, and says when the language changed', () => {
    const language = createNativeLanguage(() => ['en-US']);
    expect(language.apply('system')).toBe(false);
    expect(language.apply('ru')).toBe(true);
    expect(language.t('menu.file')).toBe('Файл');
    expect(language.apply('ru')).toBe(false);
    expect(language.apply('system')).toBe(true);
    expect(language.t('menu.file')).toBe('File');
  });

  it('rebuilds (calls back) only when a settings change switches the language', () => {
    const events = createEventHub((error) => {
      throw error;
    });
    const language = createNativeLanguage(() => ['en']);
    const rebuild = vi.fn();
    const stop = followLanguageSetting(events, language, rebuild);
    events.emit('settings.changed', withLanguage('en'));
    expect(rebuild).not.toHaveBeenCalled();
    events.emit('settings.changed', withLanguage('zh'));
    expect(rebuild).toHaveBeenCalledTimes(1);
    expect(language.t('quit.quit')).toBe('退出');
    stop();
    events.emit('settings.changed', withLanguage('ru'));
    expect(rebuild).toHaveBeenCalledTimes(1);
  });
});
