import type { FamiliarApi } from '../../../shared/ipc/contract';
import { createMirrorStore } from '../../app/mirror-store';

/** `confinement`: what app.confinement answered last (the mode, each kind's rules, what is hidden). */
const mirror = createMirrorStore('confinement', 'app.confinement');

export const useConfinementStore = mirror.useStore;

export const confinementActions = {
  load: mirror.actions.load,

  /**
   * While shown: asked again when the settings change (the readable folders, the memory switch) or
   * another folder opens (the rules are the workspace's).
   */
  follow: (api: FamiliarApi): (() => void) => mirror.actions.reloadOn(api, ['settings.changed', 'workspace.opened']),
};
