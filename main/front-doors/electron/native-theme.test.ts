import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { createEventHub } from '../../platform/ipc/event-hub';
import { followThemeSetting } from './native-theme';

describe('the native theme', () => {
  it('starts from the saved theme and follows every change of it', () => {
    const events = createEventHub(() => undefined);
    const theme: { themeSource: 'system' | 'light' | 'dark' } = { themeSource: 'system' };
    const stop = followThemeSetting(events, theme, 'dark');
    expect(theme.themeSource).toBe('dark');
    events.emit('settings.changed', { ...defaultSettings(), ui: { theme: 'light', language: 'system' } });
    expect(theme.themeSource).toBe('light');
    stop();
    events.emit('settings.changed', { ...defaultSettings(), ui: { theme: 'system', language: 'system' } });
    expect(theme.themeSource).toBe('light');
  });
});
