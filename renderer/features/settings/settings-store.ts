import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { Settings, SettingsPatch } from '../../../shared/settings';

export interface SettingsState {
  /** As main last said; null until the first answer. */
  readonly settings: Settings | null;
  /** The last load or update that failed, to show beside the control that caused it. */
  readonly error: FamiliarError | null;
}

export const useSettingsStore = create<SettingsState>()(() => ({ settings: null, error: null }));

export const settingsActions = {
  received: (settings: Settings): void => {
    useSettingsStore.setState({ settings, error: null });
  },

  load: async (api: FamiliarApi): Promise<void> => {
    const result = await api.invoke('settings.get', {});
    useSettingsStore.setState(result.ok ? { settings: result.value, error: null } : { error: result.error });
  },

  /** Saves a patch; the store changes only when main answers (settings.changed tells other pages). */
  update: async (api: FamiliarApi, patch: SettingsPatch): Promise<boolean> => {
    const result = await api.invoke('settings.update', patch);
    useSettingsStore.setState(result.ok ? { settings: result.value, error: null } : { error: result.error });
    return result.ok;
  },

  /** Loads the settings and follows settings.changed; returns the unsubscribe. */
  connect: (api: FamiliarApi): (() => void) => {
    void settingsActions.load(api);
    return api.on('settings.changed', settingsActions.received);
  },
};
