import { useEffect } from 'react';
import { useT } from '../../i18n/i18n';
import { approvalsActions, useApprovalsStore } from './approvals-store';

const NOTICE_MS = 10_000;

/** Says so when a request closed without the user's answer here (it expired, the turn stopped...). */
export function ApprovalNotice() {
  const t = useT();
  const notice = useApprovalsStore((state) => state.notice);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(approvalsActions.dismissNotice, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {notice !== null && (
        <div className="toast">
          <span>{t(`approval.closed.${notice.outcome}`, { summary: notice.summary })}</span>
          <button type="button" className="button button-small" onClick={approvalsActions.dismissNotice}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}
