import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';
import { SettingsSection } from './SettingsSection';

export function AboutSection() {
  const t = useT();
  const info = useAppStore((state) => state.info);
  return (
    <SettingsSection id="settings-about" title={t('settings.about')}>
      {info !== null && (
        <dl className="facts">
          <dt>{t('settings.version')}</dt>
          <dd>{info.version}</dd>
          <dt>{t('settings.mode')}</dt>
          <dd>{t(info.mode === 'desktop' ? 'settings.modeDesktop' : 'settings.modeBrowser')}</dd>
          <dt>{t('settings.platform')}</dt>
          <dd>{info.platform}</dd>
          <dt>{t('settings.home')}</dt>
          <dd className="path">{info.homePath}</dd>
        </dl>
      )}
    </SettingsSection>
  );
}
