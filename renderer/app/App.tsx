import { useEffect, useState } from 'react';
import { ChatPane } from '../features/chat/ChatPane';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { WorkspacePane } from '../features/workspace/WorkspacePane';
import { useT } from '../i18n/i18n';
import { connection, familiar } from '../ipc/familiar';
import { AppHeader } from './AppHeader';
import { useAppStore } from './app-store';

export function App() {
  const t = useT();
  const loadError = useAppStore((state) => state.loadError);
  const status = useAppStore((state) => state.connection);
  const [settingsOpen, setSettingsOpen] = useState(false);

  useEffect(() => {
    const { loadInfo, setConnection } = useAppStore.getState();
    setConnection(connection.status());
    void loadInfo(familiar);
    let lostConnection = false;
    return connection.onStatus((next) => {
      setConnection(next);
      if (next === 'closed') lostConnection = true;
      // After a reconnect the server may be a new process: refresh what we show.
      if (next === 'open' && lostConnection) void loadInfo(familiar);
    });
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setSettingsOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="app">
      <AppHeader onOpenSettings={() => setSettingsOpen(true)} />
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
      <div className="app-body">
        <WorkspacePane />
        <ChatPane />
      </div>
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </div>
  );
}
