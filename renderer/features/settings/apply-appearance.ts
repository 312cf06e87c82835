import { useEffect, useSyncExternalStore } from 'react';
import type { Settings } from '../../../shared/settings';
import { chooseLocale } from '../../../shared/i18n/locale';
import { useI18nStore } from '../../i18n/i18n';
import { useSettingsStore } from './settings-store';

const DARK_QUERY = '(prefers-color-scheme: dark)';
const darkQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null);

/** Applies the theme (the CSS reads data-theme; 'system' leaves it to the OS) and the UI language. */
export function applyAppearance(ui: Settings['ui']): void {
  const root = document.documentElement;
  if (ui.theme === 'system') delete root.dataset['theme'];
  else root.dataset['theme'] = ui.theme;
  // The same choice main makes for the native menus and dialogs (shared/i18n/locale.ts).
  useI18nStore
    .getState()
    .setLocale(chooseLocale(ui.language, typeof navigator === 'undefined' ? [] : navigator.languages));
}

/** Keeps the page's theme and language in step with the settings. */
export function useAppearance(): void {
  const ui = useSettingsStore((state) => state.settings?.ui);
  useEffect(() => {
    if (ui !== undefined) applyAppearance(ui);
  }, [ui]);
}

const subscribeToScheme = (onChange: () => void) => {
  const query = darkQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
};

/** 'dark' or 'light' as the page shows it now: the setting, or the OS when the setting is 'system'. */
export function useResolvedTheme(): 'light' | 'dark' {
  const theme = useSettingsStore((state) => state.settings?.ui.theme ?? 'system');
  const osDark = useSyncExternalStore(subscribeToScheme, () => darkQuery()?.matches === true);
  if (theme === 'system') return osDark ? 'dark' : 'light';
  return theme;
}
