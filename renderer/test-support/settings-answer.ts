import { beforeEach } from 'vitest';
import { applySettingsPatch, defaultSettings, settingsPatchSchema } from '../../shared/settings';
import type { Settings } from '../../shared/settings';
import { err, ok } from '../../shared/result';
import { useSettingsStore } from '../features/settings/settings-store';
import { pageApi } from './page-api';

/**
 * Starts from the default settings in the store and answers settings.update as the core does (the
 * patch checked against the contract, then merged by the same rule); returns what is stored now.
 */
export function answerSettingsLikeTheCore(): () => Settings {
  let stored = defaultSettings();
  useSettingsStore.setState({ settings: stored, error: null });
  pageApi.answer('settings.update', (patch) => {
    const parsed = settingsPatchSchema.safeParse(patch);
    if (!parsed.success) return err('invalid_payload', parsed.error.message);
    stored = applySettingsPatch(stored, parsed.data);
    return ok(stored);
  });
  return () => stored;
}

/**
 * For a settings section's test file: before each test the page API is reset and settings are
 * answered like the core; the getter returns what is stored now.
 */
export function settingsLikeTheCoreInEachTest(): () => Settings {
  let stored: () => Settings = () => {
    throw new Error('Settings are answered from beforeEach on.');
  };
  beforeEach(() => {
    pageApi.reset();
    stored = answerSettingsLikeTheCore();
  });
  return () => stored();
}
