import { Modal } from '../../app/Modal';
import type { DialogProps } from '../../app/Modal';
import { useT } from '../../i18n/i18n';
import { shortcutList } from './shortcut-list';

export function ShortcutsHelp({ open, onClose }: DialogProps) {
  const t = useT();
  return (
    <Modal open={open} onClose={onClose} title={t('shortcuts.title')} titleId="shortcuts-title">
      <dl className="facts shortcut-list">
        {shortcutList.map(({ keys, what }) => (
          <div key={what} className="facts-row">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{t(what)}</dd>
          </div>
        ))}
      </dl>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          {t('settings.close')}
        </button>
      </div>
    </Modal>
  );
}
