import { conversationsActions } from '../features/conversations/conversations-actions';
import { HistoryButton } from '../features/history/HistoryButton';
import { IncognitoButton } from '../features/incognito/IncognitoButton';
import { MemoryOffIndicator } from '../features/memory/MemoryOffIndicator';
import { MemorySwitch } from '../features/memory/MemorySwitch';
import { ScheduleBadge } from '../features/schedules/ScheduleNotices';
import { ToolsPopover } from '../features/tools/ToolsPopover';
import { ProblemsTotal } from '../features/workspace/ProblemCounts';
import { useT } from '../i18n/i18n';
import { PanelToggles } from './PanelToggles';

interface AppHeaderProps {
  readonly onOpenSettings: () => void;
  readonly onOpenShortcuts: () => void;
}

export function AppHeader({ onOpenSettings, onOpenShortcuts }: AppHeaderProps) {
  const t = useT();
  return (
    <header className="app-header">
      <div className="app-header-start">
        <h1 className="app-title">{t('app.title')}</h1>
        <PanelToggles />
      </div>
      <div className="app-header-actions">
        <ScheduleBadge onOpen={onOpenSettings} />
        <ProblemsTotal />
        <MemoryOffIndicator />
        <MemorySwitch />
        <ToolsPopover />
        <HistoryButton />
        <IncognitoButton onCreated={conversationsActions.adopt} />
        <button
          type="button"
          className="button"
          onClick={onOpenShortcuts}
          aria-keyshortcuts="?"
          aria-label={t('shortcuts.title')}
        >
          ?
        </button>
        <button type="button" className="button" onClick={onOpenSettings} aria-keyshortcuts="Control+Comma">
          {t('header.settings')}
        </button>
      </div>
    </header>
  );
}
