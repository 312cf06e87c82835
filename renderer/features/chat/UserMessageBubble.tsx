import { memo } from 'react';
import type { UserMessage } from '../../../shared/ipc/chat';
import { useT } from '../../i18n/i18n';
import { MessageImages } from './MessageImages';

/**
 * The user's words as typed: plain text, line breaks kept, never interpreted as Markdown; then the
 * pictures attached, as thumbnails.
 */
export const UserMessageBubble = memo(function UserMessageBubble({
  conversationId,
  message,
}: {
  readonly conversationId: string;
  readonly message: UserMessage;
}) {
  const t = useT();
  return (
    <article className="user-message" aria-label={t('chat.youSaid')}>
      {message.text !== '' && <p>{message.text}</p>}
      {message.images !== undefined && message.images.length > 0 && (
        <MessageImages conversationId={conversationId} images={message.images} />
      )}
    </article>
  );
});
