import { applySettingsPatch, defaultSettings, settingsSchema } from '../../../shared/settings';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import type { Logger } from '../logging/logger';
import { keepInvalidAside } from './data-files';
import { readJsonFile, writeJsonFile } from './json-file';

export interface SettingsStore {
  get(): Settings;
  update(patch: SettingsPatch): Promise<Settings>;
  subscribe(listener: (settings: Settings, previous: Settings) => void): () => void;
}

/**
 * settings.json in the Familiar home. A file that is not valid JSON or not valid settings is moved
 * aside (settings.json.invalid-<time>) and defaults are used, so a bad edit never stops the app and
 * the user's text is not lost.
 */
export async function openSettingsStore(file: string, logger: Logger): Promise<SettingsStore> {
  let current = await load(file, logger);
  const listeners = new Set<(settings: Settings, previous: Settings) => void>();
  let writing = Promise.resolve();

  return {
    get: () => current,
    async update(patch) {
      const previous = current;
      const next = applySettingsPatch(previous, patch);
      current = next;
      // Serialize writes so an older update can never land after a newer one.
      writing = writing.then(() => writeJsonFile(file, settingsSchema, next));
      await writing;
      for (const listener of listeners) listener(next, previous);
      return next;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function load(file: string, logger: Logger): Promise<Settings> {
  const stored = await readJsonFile(file, settingsSchema);
  if (stored.state === 'absent') return defaultSettings();
  if (stored.state === 'valid') return stored.value;
  if (stored.state === 'invalid') {
    logger.warn(`settings.json is not valid (${stored.error.issues[0]?.message ?? 'unknown'}); using defaults`);
  } else {
    logger.warn('settings.json is not valid JSON; using defaults');
  }
  const aside = await keepInvalidAside(file);
  logger.warn(`the invalid settings were kept in ${aside}`);
  return defaultSettings();
}
