import { useCallback, useEffect, useState } from 'react';
import { ApprovalDialog } from '../features/approvals/ApprovalDialog';
import { ApprovalNotice } from '../features/approvals/ApprovalNotice';
import { ScheduleNotices } from '../features/schedules/ScheduleNotices';
import { approvalsActions } from '../features/approvals/approvals-store';
import { ChatPane } from '../features/chat/ChatPane';
import { useAppearance } from '../features/settings/apply-appearance';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { settingsActions } from '../features/settings/settings-store';
import { isTypingTarget } from '../features/shortcuts/shortcut-list';
import { ShortcutsHelp } from '../features/shortcuts/ShortcutsHelp';
import { toolsActions } from '../features/tools/tools-store';
import { TransfersLayer } from '../features/transfers/TransfersLayer';
import { FileViewer } from '../features/workspace/FileViewer';
import { WorkspacePane } from '../features/workspace/WorkspacePane';
import { useWorkspaceStore, workspaceActions } from '../features/workspace/workspace-store';
import { useT } from '../i18n/i18n';
import { connection, familiar } from '../ipc/familiar';
import { AppHeader } from './AppHeader';
import { useAppStore } from './app-store';
import { layoutWidths } from './layout-plan';
import type { LayoutPlan } from './layout-plan';
import { layoutActions, useLayoutPlan, useLayoutStore, useViewerWidth, useWindowWidth } from './layout-store';
import { PaneResizer } from './PaneResizer';
import { panelForShortcut } from './PanelToggles';
import { useAppCommands } from './use-app-commands';
import { useStoreFields } from './use-store-fields';

/**
 * Docked panels take columns; the chat keeps its minimum; collapsed or floating panels take none.
 * The resize handle sits in a 0 px column between the chat and the file (it overhangs both).
 */
function gridColumns(plan: LayoutPlan, viewerWidth: number): string {
  const chatMin = layoutWidths.chatMin + (plan.conversations === 'docked' ? layoutWidths.conversations : 0);
  return [
    plan.workspace === 'docked' ? `${layoutWidths.workspace}px` : '',
    `minmax(${chatMin}px, 1fr)`,
    plan.viewer === 'docked' ? `0px ${viewerWidth}px` : '',
  ]
    .filter((column) => column !== '')
    .join(' ');
}

export function App() {
  const t = useT();
  const { loadError, connection: status } = useStoreFields(['loadError', 'connection'], useAppStore);
  const viewerOpen = useWorkspaceStore((state) => state.viewer !== null);
  const viewerPath = useWorkspaceStore((state) => state.viewer?.path ?? null);
  const overlay = useLayoutStore((state) => state.overlay);
  const plan = useLayoutPlan(viewerOpen);
  const viewer = useViewerWidth(plan);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  useAppearance();
  useWindowWidth();
  useAppCommands(useCallback(() => setSettingsOpen(true), []));
  // A file picked from the floating tree is what the user wanted to see: the tree makes way.
  useEffect(() => {
    if (viewerPath !== null) layoutActions.closeOverlay();
  }, [viewerPath]);

  useEffect(() => {
    const { loadInfo, setConnection } = useAppStore.getState();
    setConnection(connection.status());
    void loadInfo(familiar);
    const stops = [
      settingsActions.connect(familiar),
      toolsActions.connect(familiar),
      approvalsActions.connect(familiar),
      workspaceActions.connect(familiar),
      // Another folder was opened: app.info carries its path.
      familiar.on('workspace.opened', () => void loadInfo(familiar)),
    ];
    let lostConnection = false;
    const stopStatus = connection.onStatus((next) => {
      setConnection(next);
      if (next === 'closed') lostConnection = true;
      // After a reconnect the server may be a new process: refresh everything we show.
      if (next === 'open' && lostConnection) {
        void loadInfo(familiar);
        void settingsActions.load(familiar);
        void toolsActions.load(familiar);
        void approvalsActions.load(familiar);
        void workspaceActions.refreshAll(familiar);
      }
    });
    return () => {
      stopStatus();
      stops.forEach((stop) => stop());
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const panel = panelForShortcut(event);
      if (panel !== null) {
        event.preventDefault();
        layoutActions.toggle(panel, useWorkspaceStore.getState().viewer !== null);
      } else if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setSettingsOpen(true);
      } else if (event.key === '?' && !event.ctrlKey && !event.metaKey && !isTypingTarget(event.target)) {
        event.preventDefault();
        setShortcutsOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="app">
      <AppHeader onOpenSettings={() => setSettingsOpen(true)} onOpenShortcuts={() => setShortcutsOpen(true)} />
      {status !== 'open' && (
        <div className="banner" role="status">
          {t(status === 'connecting' ? 'app.connecting' : 'app.disconnected')}
        </div>
      )}
      {loadError !== null && (
        <div className="banner banner-error" role="alert">
          {t('app.loadFailed', { message: loadError.message })}
        </div>
      )}
      <div className="app-body" style={{ gridTemplateColumns: gridColumns(plan, viewer.width) }} data-testid="app-body">
        <WorkspacePane placement={overlay === 'workspace' ? 'overlay' : plan.workspace} />
        <ChatPane conversations={overlay === 'conversations' ? 'overlay' : plan.conversations} />
        {plan.viewer === 'docked' && (
          <PaneResizer value={viewer.width} min={viewer.min} max={viewer.max} controls="file-viewer" />
        )}
        <FileViewer placement={plan.viewer === 'overlay' ? 'overlay' : 'docked'} />
        {overlay !== null && (
          // Clicking beside a floating panel puts it away, as Esc does.
          <div className="panel-backdrop" aria-hidden="true" onClick={layoutActions.closeOverlay} />
        )}
      </div>
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ShortcutsHelp open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      <ApprovalDialog />
      <ApprovalNotice />
      <ScheduleNotices />
      <TransfersLayer />
    </div>
  );
}
