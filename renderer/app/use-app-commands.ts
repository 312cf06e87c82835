import { useEffect } from 'react';
import type { AppCommand } from '../../shared/ipc/app';
import { conversationsActions } from '../features/conversations/conversations-actions';
import { useWorkspaceStore, workspaceActions } from '../features/workspace/workspace-store';
import { familiar } from '../ipc/familiar';
import { useAppStore } from './app-store';
import { layoutActions } from './layout-store';

/** One place that carries out a command, whether it came from the desktop menu or a shortcut. */
export function runAppCommand(command: AppCommand, openSettings: () => void): void {
  const viewerOpen = useWorkspaceStore.getState().viewer !== null;
  switch (command) {
    case 'new-conversation':
      void conversationsActions.create();
      return;
    case 'open-folder': {
      const mode = useAppStore.getState().info?.mode;
      // The typed-path form lives in the files panel: show it if it was put away.
      if (mode !== 'desktop') layoutActions.reveal('workspace', viewerOpen);
      void workspaceActions.chooseFolder(familiar, mode);
      return;
    }
    case 'settings':
      openSettings();
      return;
    case 'toggle-files':
      layoutActions.toggle('workspace', viewerOpen);
      return;
    case 'toggle-conversations':
      layoutActions.toggle('conversations', viewerOpen);
      return;
  }
}

/** The desktop menu's items (app.command) and Ctrl/⌘+O, which the page handles itself. */
export function useAppCommands(openSettings: () => void): void {
  useEffect(() => {
    const stop = familiar.on('app.command', ({ command }) => runAppCommand(command, openSettings));
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'o') {
        event.preventDefault();
        runAppCommand('open-folder', openSettings);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      stop();
      window.removeEventListener('keydown', onKey);
    };
  }, [openSettings]);
}
