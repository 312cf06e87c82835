import type {
  AssistantMessage,
  AssistantPart,
  ChatMessage,
  ConversationSummary,
} from '../../../shared/ipc/conversations';
import { toToolResultView } from './tool-result-view';
import type { FoldedAttempt, FoldedConversation } from './transcript-fold';

export const DEFAULT_TITLE = 'New conversation';

/** The list entry for a conversation; `fallback` covers a transcript whose header line was lost. */
export function toSummary(
  folded: FoldedConversation,
  fallback: { id: string; createdAt: string },
  options: { trash?: boolean } = {},
): ConversationSummary {
  const summary: ConversationSummary = {
    id: folded.id ?? fallback.id,
    title: folded.title ?? DEFAULT_TITLE,
    createdAt: folded.createdAt ?? fallback.createdAt,
    updatedAt: folded.updatedAt ?? folded.createdAt ?? fallback.createdAt,
    messageCount: folded.exchanges.length,
  };
  return options.trash === true ? { ...summary, deletedAt: folded.deletedAt ?? summary.updatedAt } : summary;
}

function toAssistantMessage(attempt: FoldedAttempt, running: boolean): AssistantMessage {
  const parts: AssistantPart[] = [];
  for (const step of attempt.steps) {
    for (const part of step.parts) {
      if (part.type === 'text') {
        const last = parts.at(-1);
        if (last?.type === 'text') last.text += part.text;
        else parts.push({ type: 'text', text: part.text });
      } else {
        const { call } = part;
        parts.push({
          type: 'tool',
          toolCallId: call.toolCallId,
          name: call.name,
          args: call.args,
          result: call.result === undefined ? null : toToolResultView(call.result),
          ...(call.approval === undefined ? {} : { approval: call.approval }),
        });
      }
    }
  }
  const end = attempt.end;
  return {
    role: 'assistant',
    id: attempt.turnId,
    retryOf: attempt.retryOf,
    createdAt: attempt.startedAt,
    status: end?.status ?? (running ? 'running' : 'interrupted'),
    parts,
    ...(attempt.memoryCapture === undefined ? {} : { memoryCapture: attempt.memoryCapture }),
    ...(end?.error === undefined ? {} : { error: end.error }),
    ...(end?.usage === undefined ? {} : { usage: end.usage }),
    ...(end?.finishReason === undefined ? {} : { finishReason: end.finishReason }),
  };
}

/** Messages in display order: each user message followed by every attempt at answering it. */
export function toChatMessages(folded: FoldedConversation, runningTurnId: string | null): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const exchange of folded.exchanges) {
    messages.push({
      role: 'user',
      id: exchange.userMessageId,
      text: exchange.text,
      ...(exchange.images === undefined ? {} : { images: [...exchange.images] }),
      ...(exchange.attachments === undefined ? {} : { attachments: [...exchange.attachments] }),
      createdAt: exchange.at,
    });
    for (const attempt of exchange.attempts) {
      messages.push(toAssistantMessage(attempt, attempt.turnId === runningTurnId));
    }
  }
  return messages;
}

/**
 * A title from the first user message: its first non-empty line, whitespace collapsed, cut at a word
 * boundary near 60 characters.
 */
export function deriveTitle(text: string): string {
  const line = (text.split('\n').find((candidate) => candidate.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line === '') return DEFAULT_TITLE;
  const chars = Array.from(line);
  if (chars.length <= 60) return line;
  const cut = chars.slice(0, 60).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
