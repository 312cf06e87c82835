import { useT } from '../../i18n/i18n';
import { useSettingsStore } from '../settings/settings-store';

/** Impossible to miss while memory is off: the assistant neither sees nor touches USER.md and MEMORY.md. */
export function MemoryOffIndicator() {
  const t = useT();
  const off = useSettingsStore((state) => state.settings?.memory.enabled === false);
  if (!off) return null;
  return (
    <span className="memory-off" role="status" title={t('memory.offDetail')} data-testid="memory-off">
      {t('memory.off')}
    </span>
  );
}
