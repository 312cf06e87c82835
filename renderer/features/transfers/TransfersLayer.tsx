import { useEffect, useRef } from 'react';
import { useAppStore } from '../../app/app-store';
import { useI18nStore } from '../../i18n/i18n';
import { formatBytes } from '../../format/format-bytes';
import { familiar } from '../../ipc/familiar';
import { useTransfersT } from './transfers-messages';
import { transfersActions, useTransfersStore } from './transfers-store';
import { useStoreFields } from '../../app/use-store-fields';
import './transfers.css';

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;

/**
 * Everything about files crossing to and from the workspace, mounted once by the app: a drop target
 * over the whole window (the chat and the tree included), an upload picker, the download offers the
 * assistant made and what happened to uploads.
 */
export function TransfersLayer() {
  const t = useTransfersT();
  const mode = useAppStore((state) => state.info?.mode ?? 'browser');
  const locale = useI18nStore((state) => state.locale);
  const { offers, uploads, problems, dragging } = useStoreFields(
    ['offers', 'uploads', 'problems', 'dragging'],
    useTransfersStore,
  );
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => transfersActions.connect(familiar), []);

  useEffect(() => {
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      transfersActions.setDragging(true);
    };
    const leave = (event: DragEvent) => {
      // Leaving for another element inside the window is not leaving the window.
      if (event.relatedTarget === null) transfersActions.setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      transfersActions.setDragging(false);
      void transfersActions.upload(familiar, [...(event.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <>
      {dragging && (
        <div className="transfers-drop" aria-hidden="true">
          {t('transfers.dropHere')}
        </div>
      )}
      <div className="transfers-region" role="status" aria-live="polite">
        {offers.map((offer) => (
          <div className="toast transfers-offer" key={offer.id}>
            <span>{t('transfers.offer', { name: offer.name, size: formatBytes(offer.bytes, locale) })}</span>
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => void transfersActions.save(familiar, offer, mode)}
            >
              {t(mode === 'desktop' ? 'transfers.save' : 'transfers.download')}
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => void transfersActions.dismiss(familiar, offer)}
            >
              {t('transfers.dismiss')}
            </button>
          </div>
        ))}
        {uploads.map((upload) => (
          <div className="toast" key={upload.path}>
            <span>{t('transfers.uploaded', { name: upload.name, path: upload.path })}</span>
            <button
              type="button"
              className="button button-small"
              onClick={() => transfersActions.dismissUpload(upload.path)}
            >
              {t('transfers.dismiss')}
            </button>
          </div>
        ))}
        {problems.map((entry, index) => (
          <div className="toast transfers-problem" role="alert" key={`${entry.name}-${index}`}>
            <span>
              {t(entry.kind === 'upload' ? 'transfers.uploadFailed' : 'transfers.saveFailed', {
                name: entry.name,
                message: entry.message,
              })}
            </span>
            <button
              type="button"
              className="button button-small"
              onClick={() => transfersActions.dismissProblem(index)}
            >
              {t('transfers.dismiss')}
            </button>
          </div>
        ))}
      </div>
      <button
        type="button"
        className="button button-small transfers-picker"
        title={t('transfers.uploadTitle')}
        onClick={() => picker.current?.click()}
      >
        {t('transfers.upload')}
      </button>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-testid="upload-input"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          void transfersActions.upload(familiar, files);
        }}
      />
    </>
  );
}
