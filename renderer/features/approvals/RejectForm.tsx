import type { FormEvent } from 'react';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { approvalsActions, useApprovalsStore } from './approvals-store';

/** The optional reason goes to the assistant with the refusal. Enter rejects, Esc goes back. */
export function RejectForm() {
  const t = useT();
  const reason = useApprovalsStore((state) => state.draft.reason);
  const sending = useApprovalsStore((state) => state.sending);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void approvalsActions.reject(familiar);
  };
  return (
    <form className="reject-form" onSubmit={submit}>
      <label htmlFor="reject-reason">{t('approval.reason')}</label>
      <input
        id="reject-reason"
        className="input"
        value={reason}
        maxLength={2000}
        onChange={(event) => approvalsActions.setReason(event.target.value)}
        placeholder={t('approval.reasonPlaceholder')}
        // The form exists because the user chose to reject: the reason field is where they are.
        autoFocus
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={approvalsActions.stopRejecting} disabled={sending}>
          {t('approval.back')}
        </button>
        <button type="submit" className="button button-danger" disabled={sending}>
          {t('approval.confirmReject')}
        </button>
      </div>
    </form>
  );
}
