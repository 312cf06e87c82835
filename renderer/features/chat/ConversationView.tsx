import { useEffect } from 'react';
import { CloseButton } from '../../app/CloseButton';
import type { FamiliarError } from '../../../shared/errors';
import { useT } from '../../i18n/i18n';
import { useConversationsStore } from '../conversations/conversations-store';
import { IncognitoNotice } from '../incognito/IncognitoNotice';
import { ModelButton } from '../providers/ModelButton';
import { providersActions } from '../providers/provider-actions';
import { errorMessageKey, fixedInProviderSettings } from '../providers/provider-error-text';
import { chatActions } from './chat-actions';
import { useChatStore } from './chat-store';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { StreamAnnouncer } from './StreamAnnouncer';

/** Why the core refused a send or retry, with the way out. */
function ActionErrorNotice({ conversationId, error }: { conversationId: string; error: FamiliarError }) {
  const t = useT();
  return (
    <div className="action-error" role="alert">
      <span>{t(errorMessageKey(error.code), { code: error.code })}</span>
      {fixedInProviderSettings(error.code) && (
        <button type="button" className="button button-small" onClick={providersActions.openDialog}>
          {t('chat.setUpProvider')}
        </button>
      )}
      <CloseButton label={t('conversations.dismiss')} onClick={() => chatActions.dismissActionError(conversationId)} />
    </div>
  );
}

/** The open conversation: its title, its messages, and the composer. */
export function ConversationView({ conversationId }: { readonly conversationId: string | null }) {
  const t = useT();
  const entry = useChatStore((state) => (conversationId === null ? undefined : state.threads[conversationId]));
  const summary = useConversationsStore((state) =>
    state.conversations.find((conversation) => conversation.id === conversationId),
  );
  const title = summary?.title;

  useEffect(() => {
    if (conversationId !== null) void chatActions.open(conversationId);
  }, [conversationId]);

  const messages = entry?.thread.messages ?? [];
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <h3 id="conversation-title">{title ?? t('chat.newConversation')}</h3>
        <ModelButton />
      </header>
      {summary !== undefined && <IncognitoNotice conversation={summary} />}
      {entry?.status === 'failed' && entry.loadError !== null && (
        <div className="action-error" role="alert">
          <span>{t('chat.loadFailed', { message: entry.loadError.message })}</span>
          {conversationId !== null && (
            <button type="button" className="button button-small" onClick={() => void chatActions.open(conversationId)}>
              {t('chat.retry')}
            </button>
          )}
        </div>
      )}
      {entry !== undefined && entry.skippedLines > 0 && (
        <p className="banner" role="note">
          {t('chat.skippedLines', { count: entry.skippedLines })}
        </p>
      )}
      {conversationId !== null && messages.length > 0 ? (
        <MessageList key={conversationId} conversationId={conversationId} messages={messages} />
      ) : (
        <div className="conversation-empty">
          {entry?.status === 'loading' ? (
            <p className="muted">{t('chat.loading')}</p>
          ) : (
            <p className="chat-empty">{t('chat.empty')}</p>
          )}
        </div>
      )}
      {conversationId !== null && entry?.actionError != null && (
        <ActionErrorNotice conversationId={conversationId} error={entry.actionError} />
      )}
      <Composer conversationId={conversationId} />
      {conversationId !== null && <StreamAnnouncer conversationId={conversationId} />}
    </section>
  );
}
