import { useEffect, useRef } from 'react';
import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';

interface SettingsDialogProps {
  readonly open: boolean;
  readonly onClose: () => void;
}

/** A native modal <dialog>: the browser traps focus and closes it on Esc. */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const t = useT();
  const info = useAppStore((state) => state.info);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby="settings-title" onClose={onClose}>
      <h2 id="settings-title">{t('settings.title')}</h2>
      <section aria-labelledby="settings-about">
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
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {t('settings.close')}
        </button>
      </div>
    </dialog>
  );
}
