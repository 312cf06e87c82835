import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { PersonaInfo } from '../../../shared/ipc/assistant';
import type { FamiliarApi } from '../../../shared/ipc/contract';

export interface PersonaState {
  readonly info: PersonaInfo | null;
  readonly error: FamiliarError | null;
}

export const usePersonaStore = create<PersonaState>()(() => ({ info: null, error: null }));

export const personaActions = {
  load: async (api: FamiliarApi): Promise<void> => {
    const result = await api.invoke('persona.info', {});
    usePersonaStore.setState(result.ok ? { info: result.value, error: null } : { error: result.error });
  },

  /** While shown: measured again when memory flips (what the model sees changes) or a persona file changes. */
  follow: (api: FamiliarApi): (() => void) => {
    void personaActions.load(api);
    const stops = [
      api.on('tools.changed', () => void personaActions.load(api)),
      // The caps are settings: the meters must follow a change made here or in another window.
      api.on('settings.changed', () => void personaActions.load(api)),
      api.on('workspace.changed', (changes) => {
        const touched =
          [...changes.added, ...changes.changed].some((entry) => entry.persona) || changes.removed.length > 0;
        if (touched) void personaActions.load(api);
      }),
    ];
    return () => stops.forEach((stop) => stop());
  },
};
