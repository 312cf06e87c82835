import { memo } from 'react';
import type { UserMessage } from '../../../shared/ipc/chat';
import { useT } from '../../i18n/i18n';

/** The user's words as typed: plain text, line breaks kept, never interpreted as Markdown. */
export const UserMessageBubble = memo(function UserMessageBubble({ message }: { readonly message: UserMessage }) {
  const t = useT();
  return (
    <article className="user-message" aria-label={t('chat.youSaid')}>
      <p>{message.text}</p>
    </article>
  );
});
