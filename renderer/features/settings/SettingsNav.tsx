import { useState } from 'react';
import type { MessageKey } from '../../i18n/en';
import { useT } from '../../i18n/i18n';

/** Each section's heading id (set by the section itself) and its name: the order on the page. */
export const settingsSections: readonly { readonly id: string; readonly label: MessageKey }[] = [
  { id: 'provider-section-title', label: 'provider.sectionTitle' },
  { id: 'settings-appearance', label: 'settings.appearance' },
  { id: 'settings-memory', label: 'settings.memory' },
  { id: 'settings-workspace', label: 'settings.workspace' },
  { id: 'settings-policy', label: 'policy.title' },
  { id: 'settings-persona', label: 'persona.title' },
  { id: 'settings-uploads', label: 'settings.uploads' },
  { id: 'settings-safety', label: 'settings.safety' },
  { id: 'settings-commands', label: 'settings.commands' },
  { id: 'settings-web', label: 'settings.web' },
  { id: 'settings-code', label: 'settings.code' },
  { id: 'settings-skills', label: 'settings.skills' },
  { id: 'settings-schedules', label: 'settings.schedules' },
  { id: 'settings-mcp', label: 'mcp.title' },
  { id: 'settings-about', label: 'settings.about' },
];

/**
 * The sections at a glance beside the long settings page: a click brings one into view and moves
 * focus to its heading, so keyboard and screen-reader users land where they asked to go.
 */
export function SettingsNav() {
  const t = useT();
  const [current, setCurrent] = useState<string | null>(null);
  const go = (id: string) => {
    const heading = document.getElementById(id);
    if (heading === null) return;
    heading.tabIndex = -1;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    setCurrent(id);
  };
  return (
    <nav className="settings-nav" aria-label={t('settings.sections')}>
      <ul>
        {settingsSections.map(({ id, label }) => (
          <li key={id}>
            <button
              type="button"
              className="settings-nav-link"
              aria-current={current === id ? 'true' : undefined}
              onClick={() => go(id)}
            >
              {t(label)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
