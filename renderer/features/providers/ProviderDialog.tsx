import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/i18n';
import { providersActions } from './provider-actions';
import { ProviderForm } from './ProviderForm';
import { useProvidersStore } from './providers-store';

/**
 * The provider form in a modal, opened from the chat when a turn needs a provider (not configured,
 * key rejected, unknown model). A native <dialog>: the browser traps focus and closes it on Esc.
 */
export function ProviderDialog() {
  const t = useT();
  const open = useProvidersStore((state) => state.dialogOpen);
  const ready = useProvidersStore((state) => state.status !== null);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog provider-dialog"
      aria-labelledby="provider-dialog-title"
      onClose={providersActions.closeDialog}
    >
      <h2 id="provider-dialog-title">{t('provider.dialogTitle')}</h2>
      {open && ready && <ProviderForm onSaved={providersActions.closeDialog} />}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={providersActions.closeDialog}>
          {t('provider.close')}
        </button>
      </div>
    </dialog>
  );
}
