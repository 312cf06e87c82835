import { useT } from '../i18n/i18n';

interface AppHeaderProps {
  readonly onOpenSettings: () => void;
}

export function AppHeader({ onOpenSettings }: AppHeaderProps) {
  const t = useT();
  return (
    <header className="app-header">
      <h1 className="app-title">{t('app.title')}</h1>
      <div className="app-header-actions">
        {/* The real switch needs the memory-aware registry; until then it says so instead of pretending. */}
        <label className="memory-switch" title={t('header.memoryPending')}>
          <input type="checkbox" role="switch" disabled aria-describedby="memory-pending" />
          <span>{t('header.memory')}</span>
          <span id="memory-pending" className="visually-hidden">
            {t('header.memoryPending')}
          </span>
        </label>
        <button type="button" className="button" onClick={onOpenSettings} aria-keyshortcuts="Control+Comma">
          {t('header.settings')}
        </button>
      </div>
    </header>
  );
}
