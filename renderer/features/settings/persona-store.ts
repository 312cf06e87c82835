import type { FamiliarApi } from '../../../shared/ipc/contract';
import { createMirrorStore } from '../../app/mirror-store';
/** `info`: what persona.info answered last (the persona and memory files and their prompt sizes). */
const mirror = createMirrorStore('info', 'persona.info');

export const usePersonaStore = mirror.useStore;

export const personaActions = {
  load: mirror.actions.load,

  /**
   * While shown: measured again when memory flips (what the model sees changes), when the settings
   * change (the caps: a change made here or in another window) or a persona file changes.
   */
  follow: (api: FamiliarApi): (() => void) =>
    mirror.actions.reloadOn(api, ['tools.changed', 'settings.changed', 'workspace.changed'], {
      'workspace.changed': (changes) =>
        [...changes.added, ...changes.changed].some((entry) => entry.persona) || changes.removed.length > 0,
    }),
};
