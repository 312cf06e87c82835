import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { ToolList } from '../../../shared/ipc/assistant';
import type { FamiliarApi } from '../../../shared/ipc/contract';

export interface ToolsState {
  /** Exactly what tools.list answered last, or tools.changed pushed since. */
  readonly list: ToolList | null;
  readonly error: FamiliarError | null;
}

export const useToolsStore = create<ToolsState>()(() => ({ list: null, error: null }));

export const toolsActions = {
  received: (list: ToolList): void => {
    useToolsStore.setState({ list, error: null });
  },

  load: async (api: FamiliarApi): Promise<void> => {
    const result = await api.invoke('tools.list', {});
    useToolsStore.setState(result.ok ? { list: result.value, error: null } : { error: result.error });
  },

  connect: (api: FamiliarApi): (() => void) => {
    void toolsActions.load(api);
    return api.on('tools.changed', toolsActions.received);
  },
};
