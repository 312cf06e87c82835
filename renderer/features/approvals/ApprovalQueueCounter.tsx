import { useT } from '../../i18n/i18n';
import { approvalsActions, useApprovalsStore } from './approvals-store';

/** "1 of 3" with previous/next, so a queue of requests is visible and each can be reached. */
export function ApprovalQueueCounter() {
  const t = useT();
  const total = useApprovalsStore((state) => state.queue.length);
  const position = useApprovalsStore((state) => state.queue.findIndex((request) => request.id === state.currentId) + 1);
  if (total < 2) return null;
  return (
    <nav className="approval-counter" aria-label={t('approval.queue')}>
      <button
        type="button"
        className="button button-small"
        onClick={() => approvalsActions.showNext(-1)}
        disabled={position <= 1}
        aria-label={t('approval.previous')}
      >
        ‹
      </button>
      <span aria-live="polite">{t('approval.counter', { position, total })}</span>
      <button
        type="button"
        className="button button-small"
        onClick={() => approvalsActions.showNext(1)}
        disabled={position >= total}
        aria-label={t('approval.next')}
      >
        ›
      </button>
    </nav>
  );
}
