import { memo, useEffect, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { useI18nStore, useT } from '../../i18n/i18n';
import { conversationsActions } from './conversations-actions';
import { PencilIcon, TrashIcon } from './RowIcons';

interface ConversationRowProps {
  readonly conversation: ConversationSummary;
  readonly active: boolean;
  /** A turn is running in it. */
  readonly answering: boolean;
}

function useShortDate(iso: string): string {
  const locale = useI18nStore((state) => state.locale);
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(locale, sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium' }).format(date);
}

/** A title input that commits on Enter or blur and gives up on Esc. */
function RenameField({ conversation, onDone }: { conversation: ConversationSummary; onDone: () => void }) {
  const t = useT();
  const [title, setTitle] = useState(conversation.title);
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useEffect(() => input.current?.select(), []);
  const commit = async () => {
    if (finished.current) return;
    finished.current = true;
    await conversationsActions.rename(conversation.id, title);
    onDone();
  };
  return (
    <input
      ref={input}
      className="input conversation-rename"
      aria-label={t('conversations.renameLabel')}
      value={title}
      maxLength={200}
      autoFocus
      onChange={(event) => setTitle(event.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          void commit();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          finished.current = true;
          onDone();
        }
      }}
    />
  );
}

/** One conversation in the list: open it, rename it in place (F2), or move it to the trash (Delete). */
export const ConversationRow = memo(function ConversationRow({
  conversation,
  active,
  answering,
}: ConversationRowProps) {
  const t = useT();
  const [renaming, setRenaming] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const date = useShortDate(conversation.updatedAt);
  const stopRenaming = () => {
    setRenaming(false);
    // Keyboard users continue from where they were.
    requestAnimationFrame(() => openButton.current?.focus());
  };

  return (
    <li className={active ? 'conversation-row active' : 'conversation-row'}>
      {renaming ? (
        <RenameField conversation={conversation} onDone={stopRenaming} />
      ) : (
        <button
          ref={openButton}
          type="button"
          className="conversation-open"
          aria-current={active ? 'page' : undefined}
          aria-keyshortcuts="F2 Delete"
          onClick={() => conversationsActions.select(conversation.id)}
          onDoubleClick={() => setRenaming(true)}
          onKeyDown={(event) => {
            if (event.key === 'F2') {
              event.preventDefault();
              setRenaming(true);
            } else if (event.key === 'Delete') {
              event.preventDefault();
              void conversationsActions.remove(conversation.id);
            }
          }}
        >
          <span className="conversation-title">{conversation.title}</span>
          {conversation.incognito === true && <span className="badge">{t('incognito.badge')}</span>}
          <span className="conversation-meta">
            {answering && (
              <span className="answering-dot" title={t('conversations.answering')}>
                <span className="visually-hidden">{t('conversations.answering')}</span>
              </span>
            )}
            {date}
          </span>
        </button>
      )}
      {!renaming && (
        <div className="conversation-actions">
          <button
            type="button"
            className="icon-button"
            aria-label={t('conversations.renameNamed', { title: conversation.title })}
            title={t('conversations.renameShort')}
            onClick={() => setRenaming(true)}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t('conversations.deleteNamed', { title: conversation.title })}
            title={t('conversations.deleteShort')}
            onClick={() => void conversationsActions.remove(conversation.id)}
          >
            <TrashIcon />
          </button>
        </div>
      )}
    </li>
  );
});
