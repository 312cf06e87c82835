import type { NativeTheme } from 'electron';
import type { Settings } from '../../../shared/settings';
import type { EventHub } from '../../platform/ipc/event-hub';

/**
 * Native parts of the window (menus, dialogs, the title bar, scrollbars) follow the theme the
 * user chose in Settings → Appearance; 'system' leaves them to the OS. The page follows the same
 * setting itself, so both always agree.
 */
export function followThemeSetting(
  events: Pick<EventHub, 'subscribe'>,
  theme: Pick<NativeTheme, 'themeSource'>,
  initial: Settings['ui']['theme'],
): () => void {
  theme.themeSource = initial;
  return events.subscribe((name, payload) => {
    if (name !== 'settings.changed') return;
    const next = (payload as Partial<Settings>).ui?.theme;
    if (next !== undefined && next !== theme.themeSource) theme.themeSource = next;
  });
}
