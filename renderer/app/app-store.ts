import { create } from 'zustand';
import type { AppInfo } from '../../shared/ipc/app';
import type { FamiliarError } from '../../shared/errors';
import type { FamiliarApi } from '../../shared/ipc/contract';
import type { BridgeStatus } from '../ipc/bridge-client';

export interface AppState {
  readonly info: AppInfo | null;
  readonly loadError: FamiliarError | null;
  readonly connection: BridgeStatus;
}

export interface AppActions {
  readonly loadInfo: (api: FamiliarApi) => Promise<void>;
  readonly setConnection: (status: BridgeStatus) => void;
}

export const useAppStore = create<AppState & AppActions>((set) => ({
  info: null,
  loadError: null,
  connection: 'connecting',
  async loadInfo(api) {
    const result = await api.invoke('app.info', {});
    set(result.ok ? { info: result.value, loadError: null } : { loadError: result.error });
  },
  setConnection: (connection) => set({ connection }),
}));
