import { memo } from 'react';
import type { UserMessage } from '../../../shared/ipc/chat';
import { useT } from '../../i18n/i18n';
import { MessageImages } from './MessageImages';

/**
 * The user's words as typed: plain text, line breaks kept, never interpreted as Markdown; then the
 * pictures attached, as thumbnails; then what was attached from MCP servers, as chips.
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
      {message.attachments !== undefined && message.attachments.length > 0 && (
        <ul className="mcp-chips" aria-label={t('mcpPick.onMessage')}>
          {message.attachments.map((attachment, index) => (
            <li key={index} className="mcp-chip" title={attachment.label}>
              <span className="mcp-chip-label">
                {attachment.kind === 'resource' ? `@${attachment.label}` : attachment.label}
              </span>
              <span className="mcp-chip-server">{t('mcpPick.fromServer', { server: attachment.server })}</span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
});
