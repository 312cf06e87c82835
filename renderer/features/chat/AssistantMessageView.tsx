import { memo } from 'react';
import type { AssistantMessage } from '../../../shared/ipc/conversations';
import { useT } from '../../i18n/i18n';
import { MarkdownText } from '../markdown/MarkdownText';
import { chatActions } from './chat-actions';
import { useChatStore } from './chat-store';
import { MemoryCaptureNote } from './MemoryCaptureNote';
import { ToolCallCard } from './ToolCallCard';
import { TurnErrorNotice } from './TurnErrorNotice';

interface AssistantMessageViewProps {
  readonly conversationId: string;
  readonly message: AssistantMessage;
  /** The conversation's final word: Retry is offered here and nowhere else. */
  readonly isLast: boolean;
  /** A later retry replaced this attempt: it is shown folded away. */
  readonly superseded: boolean;
}

/** An attempt a retry replaced: one line, its content a click away. */
function SupersededAttempt({ message }: { readonly message: AssistantMessage }) {
  const t = useT();
  const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return (
    <details className="superseded-attempt">
      <summary>
        {message.status === 'error'
          ? t('chat.attemptFailed', { code: message.error?.code ?? 'error' })
          : message.status === 'stopped'
            ? t('chat.attemptStopped')
            : t('chat.attemptInterrupted')}
      </summary>
      {text !== '' && <MarkdownText text={text} />}
      {message.error !== undefined && <p className="error-detail">{message.error.message}</p>}
    </details>
  );
}

/** The assistant's reply: Markdown text and tool cards in order, then how the turn ended. */
export const AssistantMessageView = memo(function AssistantMessageView({
  conversationId,
  message,
  isLast,
  superseded,
}: AssistantMessageViewProps) {
  const t = useT();
  const busy = useChatStore((state) => state.threads[conversationId]?.busy ?? null);
  const anyRunning = useChatStore((state) => state.threads[conversationId]?.thread.runningTurnId != null);
  const receivedAt = useChatStore((state) => state.threads[conversationId]?.thread.errorReceivedAt[message.id]);
  if (superseded) return <SupersededAttempt message={message} />;

  const running = message.status === 'running';
  const canRetry = isLast && !anyRunning && message.status !== 'complete' && message.status !== 'running';
  const retry = canRetry ? () => void chatActions.retry(conversationId) : null;
  const hasText = message.parts.some((part) => part.type === 'text' && part.text !== '');

  return (
    <article
      className={`assistant-message status-${message.status}`}
      aria-label={t('chat.assistantSaid')}
      aria-busy={running}
      data-status={message.status}
    >
      {message.memoryCapture !== undefined && <MemoryCaptureNote capture={message.memoryCapture} />}
      {message.parts.map((part, index) =>
        part.type === 'text' ? (
          <MarkdownText key={index} text={part.text} />
        ) : (
          <ToolCallCard key={part.toolCallId} part={part} turnRunning={running} />
        ),
      )}
      {running && !hasText && (
        <p className="thinking" aria-hidden="true">
          <span className="thinking-dot" />
          <span className="thinking-dot" />
          <span className="thinking-dot" />
        </p>
      )}
      {message.status === 'error' && message.error !== undefined && (
        <TurnErrorNotice
          error={message.error}
          since={receivedAt ?? Date.parse(message.createdAt)}
          onRetry={retry}
          retrying={busy === 'retrying'}
        />
      )}
      {(message.status === 'stopped' || message.status === 'interrupted') && (
        <div className={`turn-note turn-${message.status}`}>
          <span className="turn-badge">{message.status === 'stopped' ? t('chat.stopped') : t('chat.interrupted')}</span>
          {retry !== null && (
            <button type="button" className="button button-small" onClick={retry} disabled={busy === 'retrying'}>
              {t('chat.retry')}
            </button>
          )}
        </div>
      )}
      {message.status === 'complete' && message.finishReason === 'length' && (
        <p className="turn-note muted">{t('chat.cutAtLength')}</p>
      )}
      {message.status === 'complete' && message.finishReason === 'max-steps' && (
        <p className="turn-note muted">{t('chat.cutAtMaxSteps')}</p>
      )}
    </article>
  );
});
