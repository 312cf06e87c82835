import type { FamiliarApi } from '../../../shared/ipc/contract';
import { createMirrorStore } from '../../app/mirror-store';
/** `info`: what persona.info answered last (the persona and memory files and their prompt sizes). */
const mirror = createMirrorStore('info', 'persona.info');

export const usePersonaStore = mirror.useStore;

export const personaActions = {
  load: mirror.actions.load,

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
