import { createMirrorStore } from '../../app/mirror-store';

/** `list`: exactly what tools.list answered last, or tools.changed pushed since. */
export const { useStore: useToolsStore, actions: toolsActions } = createMirrorStore(
  'list',
  'tools.list',
  'tools.changed',
);
