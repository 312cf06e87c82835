import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';

export function AboutSection() {
  const t = useT();
  const info = useAppStore((state) => state.info);
  return (
    <section className="settings-section" aria-labelledby="settings-about">
      <h3 id="settings-about">{t('settings.about')}</h3>
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
    </section>
  );
}
