import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { SettingsPatch } from '../../../shared/settings';
import { createMirrorStore } from '../../app/mirror-store';

/**
 * `settings`: as main last said (null until the first answer); `error`: the last load or update that
 * failed, to show beside the control that caused it.
 */
const mirror = createMirrorStore('settings', 'settings.get', 'settings.changed');

export const useSettingsStore = mirror.useStore;

/** `connect` loads the settings and follows settings.changed. */
export const settingsActions = {
  ...mirror.actions,

  /** Saves a patch; the store changes only when main answers (settings.changed tells other pages). */
  update: async (api: FamiliarApi, patch: SettingsPatch): Promise<boolean> => {
    const result = await api.invoke('settings.update', patch);
    mirror.actions.settle(result);
    return result.ok;
  },
};
