import type { PanelPlacement } from '../../app/layout-plan';
import { layoutActions } from '../../app/layout-store';
import { useT } from '../../i18n/i18n';
import { useChatStore } from '../chat/chat-store';
import { errorMessageKey } from '../providers/provider-error-text';
import { ConversationRow } from './ConversationRow';
import { ConversationSearchField } from './ConversationSearchField';
import { conversationsActions } from './conversations-actions';
import { useConversationsStore } from './conversations-store';
import { UndoDeleteBar } from './UndoDeleteBar';
import { useStoreFields } from '../../app/use-store-fields';
import './conversations.css';

/** The conversation list: new, search, open, rename, delete with undo. */
export function ConversationSidebar({ placement = 'docked' }: { readonly placement?: PanelPlacement }) {
  const t = useT();
  const { conversations, searchResults, activeId, status, error } = useStoreFields(
    ['conversations', 'searchResults', 'activeId', 'status', 'error'],
    useConversationsStore,
  );
  const running = useChatStore((state) => state.running);
  const shown = searchResults ?? conversations;

  return (
    <nav
      id="conversation-sidebar"
      className={
        placement === 'overlay' ? 'conversation-sidebar panel-overlay panel-overlay-start' : 'conversation-sidebar'
      }
      aria-label={t('conversations.title')}
      hidden={placement === 'collapsed'}
      onKeyDown={(event) => {
        if (placement === 'overlay' && event.key === 'Escape' && !event.defaultPrevented) layoutActions.closeOverlay();
      }}
    >
      <button
        type="button"
        className="button button-primary new-conversation"
        aria-keyshortcuts="Control+N Meta+N"
        onClick={() => void conversationsActions.create()}
      >
        {t('conversations.new')}
      </button>
      <ConversationSearchField />
      {error !== null && (
        <p className="error-text" role="alert">
          {t(errorMessageKey(error.code), { code: error.code })} <span className="error-detail">{error.message}</span>
        </p>
      )}
      {status === 'ready' && shown.length === 0 && (
        <p className="muted sidebar-empty">
          {searchResults === null ? t('conversations.none') : t('conversations.noMatches')}
        </p>
      )}
      <ul className="conversation-list">
        {shown.map((conversation) => (
          <ConversationRow
            key={conversation.id}
            conversation={conversation}
            active={conversation.id === activeId}
            answering={running[conversation.id] !== undefined}
          />
        ))}
      </ul>
      <UndoDeleteBar />
    </nav>
  );
}
