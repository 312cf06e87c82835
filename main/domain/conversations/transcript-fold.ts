import type { ImageRef } from '../../../shared/chat-images';
import type { McpAttachment } from '../../../shared/mcp-attachments';
import type { MemoryCapture, TurnError, Usage } from '../../../shared/ipc/chat';
import type { StoredToolResult, TranscriptRecord } from './transcript-records';

/**
 * A transcript folded into its shape: exchanges (one user message each) answered by one or more
 * attempts (turns; more than one when the user retried), each made of steps (one model call each).
 * Both the page's view and the model's history are built from this, so they never disagree.
 */

export interface FoldedToolCall {
  readonly toolCallId: string;
  readonly name: string;
  readonly args: unknown;
  result: StoredToolResult | undefined;
  approval: { decision: 'approved' | 'rejected' | 'edited'; reason?: string } | undefined;
}

export type FoldedPart =
  { readonly type: 'text'; text: string } | { readonly type: 'tool'; readonly call: FoldedToolCall };

export interface FoldedStep {
  readonly index: number;
  readonly parts: FoldedPart[];
}

export interface FoldedAttempt {
  readonly turnId: string;
  readonly retryOf: string | null;
  readonly startedAt: string;
  readonly steps: FoldedStep[];
  /** What was kept in memory before this turn, when earlier messages were about to leave the context. */
  memoryCapture: MemoryCapture | undefined;
  /** Undefined while the turn runs, or forever if Familiar died mid-turn ('interrupted'). */
  end:
    | {
        readonly status: 'complete' | 'stopped' | 'error';
        readonly finishReason?: string;
        readonly usage?: Usage;
        readonly error?: TurnError;
      }
    | undefined;
}

export interface FoldedExchange {
  readonly userMessageId: string;
  readonly text: string;
  readonly images?: readonly ImageRef[];
  readonly attachments?: readonly McpAttachment[];
  readonly at: string;
  readonly attempts: FoldedAttempt[];
}

export interface FoldedConversation {
  readonly id: string | undefined;
  readonly createdAt: string | undefined;
  readonly title: string | undefined;
  readonly titleSource: 'auto' | 'user' | undefined;
  readonly updatedAt: string | undefined;
  readonly deletedAt: string | undefined;
  readonly exchanges: FoldedExchange[];
  /** The user message whose exchange (and every earlier one) a memory capture has already been offered. */
  readonly memoryCapturedThrough: string | undefined;
}

export function foldTranscript(records: readonly TranscriptRecord[]): FoldedConversation {
  let id: string | undefined;
  let createdAt: string | undefined;
  let title: string | undefined;
  let titleSource: 'auto' | 'user' | undefined;
  let updatedAt: string | undefined;
  let deletedAt: string | undefined;
  let memoryCapturedThrough: string | undefined;
  const exchanges: FoldedExchange[] = [];
  const exchangeByMessage = new Map<string, FoldedExchange>();
  const attempts = new Map<string, FoldedAttempt>();
  const calls = new Map<string, FoldedToolCall>();

  const stepOf = (attempt: FoldedAttempt, index: number): FoldedStep => {
    let step = attempt.steps.find((candidate) => candidate.index === index);
    if (step === undefined) {
      step = { index, parts: [] };
      attempt.steps.push(step);
    }
    return step;
  };

  for (const record of records) {
    updatedAt = record.at;
    switch (record.type) {
      case 'conversation':
        id = record.id;
        createdAt = record.at;
        break;
      case 'title':
        title = record.title;
        titleSource = record.source;
        break;
      case 'user': {
        const exchange: FoldedExchange = {
          userMessageId: record.messageId,
          text: record.text,
          ...(record.images === undefined || record.images.length === 0 ? {} : { images: record.images }),
          ...(record.attachments === undefined || record.attachments.length === 0
            ? {}
            : { attachments: record.attachments }),
          at: record.at,
          attempts: [],
        };
        exchanges.push(exchange);
        exchangeByMessage.set(record.messageId, exchange);
        break;
      }
      case 'turn-start': {
        const exchange = exchangeByMessage.get(record.userMessageId);
        if (exchange === undefined) break;
        const attempt: FoldedAttempt = {
          turnId: record.turnId,
          retryOf: record.retryOf,
          startedAt: record.at,
          steps: [],
          memoryCapture: undefined,
          end: undefined,
        };
        exchange.attempts.push(attempt);
        attempts.set(record.turnId, attempt);
        break;
      }
      case 'text': {
        const attempt = attempts.get(record.turnId);
        if (attempt === undefined || record.text === '') break;
        const parts = stepOf(attempt, record.step).parts;
        const last = parts.at(-1);
        if (last?.type === 'text') last.text += record.text;
        else parts.push({ type: 'text', text: record.text });
        break;
      }
      case 'tool-call': {
        const attempt = attempts.get(record.turnId);
        if (attempt === undefined) break;
        const call: FoldedToolCall = {
          toolCallId: record.toolCallId,
          name: record.name,
          args: record.args,
          result: undefined,
          approval: undefined,
        };
        calls.set(record.toolCallId, call);
        stepOf(attempt, record.step).parts.push({ type: 'tool', call });
        break;
      }
      case 'tool-result': {
        const call = calls.get(record.toolCallId);
        if (call !== undefined) call.result = record.result;
        break;
      }
      case 'memory-capture': {
        const attempt = attempts.get(record.turnId);
        if (attempt !== undefined) {
          attempt.memoryCapture =
            record.error === undefined ? { kept: record.kept } : { kept: record.kept, error: record.error };
        }
        // A failed capture is offered the same messages again before the next turn.
        if (record.error === undefined) memoryCapturedThrough = record.throughMessageId;
        break;
      }
      case 'approval': {
        const call = calls.get(record.toolCallId);
        if (call !== undefined) {
          call.approval =
            record.reason === undefined
              ? { decision: record.decision }
              : { decision: record.decision, reason: record.reason };
        }
        break;
      }
      case 'turn-end': {
        const attempt = attempts.get(record.turnId);
        if (attempt === undefined) break;
        attempt.end = {
          status: record.status,
          ...(record.finishReason === undefined ? {} : { finishReason: record.finishReason }),
          ...(record.usage === undefined ? {} : { usage: record.usage }),
          ...(record.error === undefined ? {} : { error: record.error }),
        };
        break;
      }
      case 'deleted':
        deletedAt = record.at;
        break;
      case 'restored':
        deletedAt = undefined;
        break;
    }
  }
  for (const attempt of attempts.values()) attempt.steps.sort((a, b) => a.index - b.index);
  return { id, createdAt, title, titleSource, updatedAt, deletedAt, exchanges, memoryCapturedThrough };
}

/** The most recent attempt of the conversation, if any. */
export function lastAttempt(
  conversation: FoldedConversation,
): { exchange: FoldedExchange; attempt: FoldedAttempt } | undefined {
  const exchange = conversation.exchanges.at(-1);
  const attempt = exchange?.attempts.at(-1);
  return exchange === undefined || attempt === undefined ? undefined : { exchange, attempt };
}
