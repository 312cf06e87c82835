import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo } from 'react';
import type { ChatMessage } from '../../../shared/ipc/conversations';
import { useT } from '../../i18n/i18n';
import { AssistantMessageView } from './AssistantMessageView';
import { supersededTurnIds } from './chat-fold';
import { useStickToBottom } from './use-stick-to-bottom';
import { UserMessageBubble } from './UserMessageBubble';

interface MessageListProps {
  readonly conversationId: string;
  readonly messages: readonly ChatMessage[];
}

/** Size of a reply only changes the last row while streaming; this is a rough first guess per row. */
const ESTIMATED_ROW_PX = 96;

/**
 * The conversation's messages, virtualized: only the rows near the viewport are in the DOM, so a
 * thousand-message conversation scrolls like a short one. Rows are measured as they render.
 */
export function MessageList({ conversationId, messages }: MessageListProps) {
  const t = useT();
  const superseded = useMemo(() => supersededTurnIds(messages), [messages]);
  const { scrollerRef, contentRef, atBottom, onScroll, scrollToEnd } = useStickToBottom();
  // The build does not run the React Compiler, so its "cannot memoize this library" note does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => messages[index]?.id ?? index,
    overscan: 6,
    // Start at the end: a conversation is read from its latest message.
    initialOffset: () => Number.MAX_SAFE_INTEGER,
  });
  const totalSize = virtualizer.getTotalSize();

  return (
    <div className="message-list-frame">
      <div
        ref={scrollerRef}
        className="message-list"
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={t('chat.messages')}
      >
        <div ref={contentRef} className="message-list-inner" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index];
            if (message === undefined) return null;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="message-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {message.role === 'user' ? (
                  <UserMessageBubble conversationId={conversationId} message={message} />
                ) : (
                  <AssistantMessageView
                    conversationId={conversationId}
                    message={message}
                    isLast={item.index === messages.length - 1}
                    superseded={superseded.has(message.id)}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {!atBottom && (
        <button type="button" className="button button-small jump-to-latest" onClick={scrollToEnd}>
          {t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  );
}
