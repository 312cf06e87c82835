import { useT } from '../i18n/i18n';
import { Button } from './Button';
import { useWorkspaceStore } from '../features/workspace/workspace-store';
import { layoutActions, useLayoutPlan, useLayoutStore } from './layout-store';
import type { SidePanel } from './layout-plan';

const panels: readonly {
  readonly panel: SidePanel;
  readonly controls: string;
  readonly keys: string;
  readonly label: 'layout.files' | 'layout.conversations';
}[] = [
  { panel: 'workspace', controls: 'workspace-pane', keys: 'Control+B Meta+B', label: 'layout.files' },
  {
    panel: 'conversations',
    controls: 'conversation-sidebar',
    keys: 'Control+Shift+B Meta+Shift+B',
    label: 'layout.conversations',
  },
];

/** Show/hide buttons for the two side panels; pressed means the panel is on screen (docked or floating). */
export function PanelToggles() {
  const t = useT();
  const viewerOpen = useWorkspaceStore((state) => state.viewer !== null);
  const plan = useLayoutPlan(viewerOpen);
  const overlay = useLayoutStore((state) => state.overlay);
  return (
    <div className="panel-toggles">
      {panels.map(({ panel, controls, keys, label }) => {
        const shown = plan[panel] === 'docked' || overlay === panel;
        return (
          <Button
            key={panel}
            look="small"
            className="panel-toggle"
            aria-expanded={shown}
            aria-controls={controls}
            aria-keyshortcuts={keys}
            title={t(shown ? 'layout.hide' : 'layout.show', { panel: t(label) })}
            onClick={() => layoutActions.toggle(panel, viewerOpen)}
          >
            {t(label)}
          </Button>
        );
      })}
    </div>
  );
}

/** Ctrl/⌘+B toggles the files panel, Ctrl/⌘+Shift+B the conversation list (the View menu shows both). */
export function panelForShortcut(event: KeyboardEvent): SidePanel | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'b') return null;
  return event.shiftKey ? 'conversations' : 'workspace';
}
