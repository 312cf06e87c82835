import { Modal } from '../../app/Modal';
import { useT } from '../../i18n/i18n';
import { providersActions } from './provider-actions';
import { ProviderForm } from './ProviderForm';
import { useProvidersStore } from './providers-store';

/**
 * The provider form in a Modal, opened from the chat when a turn needs a provider (not configured,
 * key rejected, unknown model).
 */
export function ProviderDialog() {
  const t = useT();
  const open = useProvidersStore((state) => state.dialogOpen);
  const ready = useProvidersStore((state) => state.status !== null);

  return (
    <Modal
      open={open}
      onClose={providersActions.closeDialog}
      title={t('provider.dialogTitle')}
      titleId="provider-dialog-title"
      className="provider-dialog"
    >
      {ready && <ProviderForm onSaved={providersActions.closeDialog} />}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={providersActions.closeDialog}>
          {t('provider.close')}
        </button>
      </div>
    </Modal>
  );
}
