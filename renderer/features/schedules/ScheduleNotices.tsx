import { useEffect } from 'react';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from '../conversations/conversations-actions';
import { schedulesActions, useScheduleNoticesStore, useSchedulesStore } from './schedules-store';
import './schedules.css';

/** The heartbeat's and tasks' notifications as toasts; mounted once by the app. */
export function ScheduleNotices() {
  const t = useT();
  const notices = useScheduleNoticesStore((state) => state.notices);
  useEffect(() => schedulesActions.connect(familiar), []);
  return (
    <div className="toast-region schedule-notices" role="status" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className="toast schedule-notice" data-kind={notice.kind}>
          <div className="schedule-notice-text">
            <strong>{notice.title}</strong>
            <span>{notice.body.slice(0, 300)}</span>
          </div>
          {notice.conversationId !== undefined && (
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                if (notice.conversationId !== undefined) conversationsActions.select(notice.conversationId);
                schedulesActions.dismiss(notice.id);
              }}
            >
              {t('schedules.open')}
            </button>
          )}
          <button type="button" className="button button-small" onClick={() => schedulesActions.dismiss(notice.id)}>
            {t('schedules.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}

/** The header's badge: how many notifications came since the user last looked; a click shows them. */
export function ScheduleBadge({ onOpen }: { readonly onOpen: () => void }) {
  const t = useT();
  const unseen = useSchedulesStore((state) => state.state?.unseen ?? 0);
  if (unseen === 0) return null;
  return (
    <button
      type="button"
      className="button schedule-badge"
      aria-label={t('schedules.badgeLabel', { count: unseen })}
      onClick={() => {
        void schedulesActions.markSeen(familiar);
        onOpen();
      }}
    >
      {t('schedules.badge', { count: unseen })}
    </button>
  );
}
