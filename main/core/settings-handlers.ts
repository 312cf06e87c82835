import { ok } from '../../shared/result';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { SettingsStore } from '../platform/storage/settings-store';

export type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.update'>;

export function createSettingsHandlers(store: SettingsStore): SettingsHandlers {
  return {
    'settings.get': () => ok(store.get()),
    'settings.update': async (patch) => ok(await store.update(patch)),
  };
}
