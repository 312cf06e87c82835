import type { Settings } from '../../../shared/settings';
import { chooseLocale } from '../../../shared/i18n/locale';
import type { Locale } from '../../../shared/i18n/locale';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';
import type { EventHub } from '../../platform/ipc/event-hub';

type LanguageSetting = Settings['ui']['language'];

/** The language of the native menus and dialogs: the same setting, and the same choice, as the page's. */
export interface NativeLanguage {
  /** Translates with the language chosen now (so a dialog shown later speaks the later language). */
  readonly t: NativeText;
  locale(this: void): Locale;
  /** Applies the setting ('system' asks the OS again); true when the language changed. */
  apply(this: void, setting: LanguageSetting): boolean;
}

export function createNativeLanguage(systemLanguages: () => readonly string[]): NativeLanguage {
  let current = chooseLocale('system', systemLanguages());
  let text = nativeText(current);
  return {
    t: (key, params) => text(key, params),
    locale: () => current,
    apply: (setting) => {
      const next = chooseLocale(setting, systemLanguages());
      if (next === current) return false;
      current = next;
      text = nativeText(next);
      return true;
    },
  };
}

/**
 * Follows the language setting: `onChange` runs (to rebuild the application menu, which Electron
 * does not re-read) each time a settings change switches the language. Returns the unsubscribe.
 */
export function followLanguageSetting(
  events: Pick<EventHub, 'subscribe'>,
  language: NativeLanguage,
  onChange: () => void,
): () => void {
  return events.subscribe((name, payload) => {
    if (name !== 'settings.changed') return;
    if (language.apply((payload as Settings).ui.language)) onChange();
  });
}
