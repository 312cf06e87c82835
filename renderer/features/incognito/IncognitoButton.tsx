import { useState } from 'react';
import { usePopover } from '../../app/use-popover';
import type { FamiliarError } from '../../../shared/errors';
import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import './incognito.css';

interface IncognitoButtonProps {
  /** Called with the new conversation, e.g. to open it in the chat. */
  readonly onCreated?: (conversation: ConversationSummary) => void;
}

/**
 * "New incognito conversation": says what incognito means before anything is created (memory off
 * whatever the switch says; nothing saved, gone when Familiar quits), then creates one.
 */
export function IncognitoButton({ onCreated }: IncognitoButtonProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; error: FamiliarError } | null>(null);
  const { open, setOpen, close, panelId, button, panel } = usePopover();

  const start = async () => {
    setBusy(true);
    const result = await familiar.invoke('conversations.create', { incognito: true });
    setBusy(false);
    if (!result.ok) {
      setOutcome({ ok: false, error: result.error });
      return;
    }
    setOutcome({ ok: true });
    onCreated?.(result.value);
    close();
  };

  return (
    <div className="popover-anchor">
      <button
        ref={button}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOutcome(null);
          setOpen(!open);
        }}
      >
        {t('incognito.new')}
      </button>
      {outcome?.ok === true && (
        <span className="visually-hidden" role="status">
          {t('incognito.created')}
        </span>
      )}
      {open && (
        <div
          ref={panel}
          id={panelId}
          className="popover incognito-popover"
          role="dialog"
          aria-label={t('incognito.new')}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <h2 className="popover-title">{t('incognito.new')}</h2>
          <p>{t('incognito.explain')}</p>
          {outcome?.ok === false && (
            <p className="form-error" role="alert">
              {t('incognito.failed', { message: outcome.error.message })}
            </p>
          )}
          <div className="incognito-actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void start()}>
              {t('incognito.create')}
            </button>
            <button type="button" className="button" onClick={close}>
              {t('incognito.cancel')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
