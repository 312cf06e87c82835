import { useState } from 'react';
import { FormError } from '../../app/FormError';
import { Popover } from '../../app/Popover';
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

  const start = async (close: () => void) => {
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
    <Popover
      label={t('incognito.new')}
      title={t('incognito.new')}
      className="incognito-popover"
      onToggle={() => setOutcome(null)}
      beside={
        outcome?.ok === true && (
          <span className="visually-hidden" role="status">
            {t('incognito.created')}
          </span>
        )
      }
    >
      {(close) => (
        <>
          <p>{t('incognito.explain')}</p>
          <FormError message={outcome?.ok === false && t('incognito.failed', { message: outcome.error.message })} />
          <div className="incognito-actions">
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void start(close)}>
              {t('incognito.create')}
            </button>
            <button type="button" className="button" onClick={close}>
              {t('incognito.cancel')}
            </button>
          </div>
        </>
      )}
    </Popover>
  );
}
