import type { ToolList } from '../../../shared/ipc/assistant';
import { createMirrorStore } from '../../app/mirror-store';
import type { MirrorState } from '../../app/mirror-store';

/** `list`: exactly what tools.list answered last, or tools.changed pushed since. */
export type ToolsState = MirrorState<'list', ToolList>;

export const { useStore: useToolsStore, actions: toolsActions } = createMirrorStore(
  'list',
  'tools.list',
  'tools.changed',
);
