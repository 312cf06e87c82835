import { useEffect, useRef } from 'react';
import { CloseButton } from '../../app/CloseButton';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from './conversations-actions';
import { useConversationsStore } from './conversations-store';

const SHOWN_MS = 12_000;

/** "Moved to the trash — Undo". Leaves by itself after a while, but never while focus is inside it. */
export function UndoDeleteBar() {
  const t = useT();
  const deleted = useConversationsStore((state) => state.recentlyDeleted);
  const bar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (deleted === null) return;
    const timer = setInterval(() => {
      if (bar.current?.contains(document.activeElement) !== true) conversationsActions.dismissUndo();
    }, SHOWN_MS);
    return () => clearInterval(timer);
  }, [deleted]);

  return (
    <div ref={bar} className="undo-bar" role="status">
      {deleted !== null && (
        <>
          <span>{t('conversations.deleted', { title: deleted.title })}</span>
          <button type="button" className="button button-small" onClick={() => void conversationsActions.undoRemove()}>
            {t('conversations.undo')}
          </button>
          <CloseButton label={t('conversations.dismiss')} onClick={conversationsActions.dismissUndo} />
        </>
      )}
    </div>
  );
}
