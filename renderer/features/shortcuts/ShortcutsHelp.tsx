import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/i18n';
import { shortcutList } from './shortcut-list';

interface ShortcutsHelpProps {
  readonly open: boolean;
  readonly onClose: () => void;
}

export function ShortcutsHelp({ open, onClose }: ShortcutsHelpProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">{t('shortcuts.title')}</h2>
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
        <button type="button" className="button" onClick={onClose} autoFocus>
          {t('settings.close')}
        </button>
      </div>
    </dialog>
  );
}
