import type { ChatEvent } from '../../../shared/ipc/chat';
import type { AssistantMessage, AssistantPart, ChatMessage } from '../../../shared/ipc/conversations';

/**
 * One open conversation as the page shows it: the messages `conversations.open` answered, with the
 * live `chat.event`s folded in. Pure data, so the folding below is a set of pure functions.
 */
export interface ChatThread {
  readonly messages: readonly ChatMessage[];
  /** The turn that is answering right now, if any. */
  readonly runningTurnId: string | null;
  /**
   * When each live turn-error arrived (ms since epoch): the rate-limit countdown runs from here.
   * Errors loaded from the transcript count from their message's createdAt instead.
   */
  readonly errorReceivedAt: Readonly<Record<string, number>>;
}

export const emptyThread = (): ChatThread => ({ messages: [], runningTurnId: null, errorReceivedAt: {} });

/** Replaces the assistant message `turnId` (searched from the end: it is nearly always the last). */
function updateAssistant(
  thread: ChatThread,
  turnId: string,
  update: (message: AssistantMessage) => AssistantMessage,
): ChatThread {
  for (let index = thread.messages.length - 1; index >= 0; index--) {
    const message = thread.messages[index];
    if (message?.role === 'assistant' && message.id === turnId) {
      const messages = thread.messages.slice();
      messages[index] = update(message);
      return { ...thread, messages };
    }
  }
  // An event for a turn we never saw start (the page joined mid-turn): nothing to fold it into.
  return thread;
}

function appendText(parts: readonly AssistantPart[], text: string): AssistantPart[] {
  const last = parts.at(-1);
  if (last?.type === 'text') return [...parts.slice(0, -1), { type: 'text', text: last.text + text }];
  return [...parts, { type: 'text', text }];
}

const endTurn = (thread: ChatThread, turnId: string): string | null =>
  thread.runningTurnId === turnId ? null : thread.runningTurnId;

/** Folds one chat.event into a thread. `now` is injected so tests decide the clock. */
export function foldChatEvent(thread: ChatThread, event: ChatEvent, now: number): ChatThread {
  switch (event.type) {
    case 'turn-started': {
      const messages = thread.messages.slice();
      const { userMessage } = event;
      if (userMessage !== null && !messages.some((message) => message.id === userMessage.id)) {
        messages.push(userMessage);
      }
      if (!messages.some((message) => message.role === 'assistant' && message.id === event.turnId)) {
        messages.push({
          role: 'assistant',
          id: event.turnId,
          retryOf: event.retryOf,
          createdAt: new Date(now).toISOString(),
          status: 'running',
          parts: [],
        });
      }
      return { ...thread, messages, runningTurnId: event.turnId };
    }
    case 'memory-captured':
      return updateAssistant(thread, event.turnId, (message) => ({ ...message, memoryCapture: event.capture }));
    case 'text-delta':
      return updateAssistant(thread, event.turnId, (message) => ({
        ...message,
        parts: appendText(message.parts, event.text),
      }));
    case 'tool-call':
      return updateAssistant(thread, event.turnId, (message) =>
        message.parts.some((part) => part.type === 'tool' && part.toolCallId === event.toolCallId)
          ? message
          : {
              ...message,
              parts: [
                ...message.parts,
                { type: 'tool', toolCallId: event.toolCallId, name: event.name, args: event.args, result: null },
              ],
            },
      );
    case 'tool-progress':
      return updateAssistant(thread, event.turnId, (message) => ({
        ...message,
        parts: message.parts.map((part) =>
          part.type === 'tool' && part.toolCallId === event.toolCallId && part.result === null
            ? { ...part, progress: event.progress }
            : part,
        ),
      }));
    case 'tool-result':
      return updateAssistant(thread, event.turnId, (message) => ({
        ...message,
        parts: message.parts.some((part) => part.type === 'tool' && part.toolCallId === event.toolCallId)
          ? message.parts.map((part) =>
              part.type === 'tool' && part.toolCallId === event.toolCallId ? { ...part, result: event.result } : part,
            )
          : // A result whose call we missed still deserves a card.
            [
              ...message.parts,
              { type: 'tool', toolCallId: event.toolCallId, name: event.name, args: undefined, result: event.result },
            ],
      }));
    case 'turn-finished': {
      const next = updateAssistant(thread, event.turnId, (message) => ({
        ...message,
        status: 'complete',
        usage: event.usage,
        finishReason: event.finishReason,
      }));
      return { ...next, runningTurnId: endTurn(thread, event.turnId) };
    }
    case 'turn-stopped': {
      const next = updateAssistant(thread, event.turnId, (message) => ({ ...message, status: 'stopped' }));
      return { ...next, runningTurnId: endTurn(thread, event.turnId) };
    }
    case 'turn-error': {
      const next = updateAssistant(thread, event.turnId, (message) => ({
        ...message,
        status: 'error',
        error: event.error,
      }));
      return {
        ...next,
        runningTurnId: endTurn(thread, event.turnId),
        errorReceivedAt: { ...thread.errorReceivedAt, [event.turnId]: now },
      };
    }
  }
}

/** True for the terminal events of a turn. */
export const endsTurn = (event: ChatEvent): boolean =>
  event.type === 'turn-finished' || event.type === 'turn-stopped' || event.type === 'turn-error';

/**
 * The attempts a later retry replaced: the page shows them folded away. A retry's turn-started
 * names the failed turn in `retryOf`.
 */
export function supersededTurnIds(messages: readonly ChatMessage[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const message of messages)
    if (message.role === 'assistant' && message.retryOf !== null) ids.add(message.retryOf);
  return ids;
}

/** The last assistant message, when it is the conversation's final word (what Retry would redo). */
export function lastAttempt(messages: readonly ChatMessage[]): AssistantMessage | undefined {
  const last = messages.at(-1);
  return last?.role === 'assistant' ? last : undefined;
}

type ApprovalView = NonNullable<Extract<AssistantPart, { type: 'tool' }>['approval']>;

/**
 * The user's answer to an approval, on the tool call it held (live, as the transcript records it):
 * 'approved-edited' reads as 'edited'; expiries and stopped turns were no answer and change nothing.
 */
export function withApproval(
  thread: ChatThread,
  toolCallId: string,
  outcome: string,
  reason: string | undefined,
): ChatThread {
  const decision =
    outcome === 'approved'
      ? 'approved'
      : outcome === 'approved-edited'
        ? 'edited'
        : outcome === 'rejected'
          ? 'rejected'
          : undefined;
  if (decision === undefined) return thread;
  const approval: ApprovalView = reason === undefined ? { decision } : { decision, reason };
  let changed = false;
  const messages = thread.messages.map((message) => {
    if (
      message.role !== 'assistant' ||
      !message.parts.some((part) => part.type === 'tool' && part.toolCallId === toolCallId)
    )
      return message;
    changed = true;
    return {
      ...message,
      parts: message.parts.map((part) =>
        part.type === 'tool' && part.toolCallId === toolCallId ? { ...part, approval } : part,
      ),
    };
  });
  return changed ? { ...thread, messages } : thread;
}
