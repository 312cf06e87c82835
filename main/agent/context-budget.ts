import type { ModelMessage, ToolModelMessage } from 'ai';
import type { ContextReport } from '../../shared/ipc/chat';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { estimateMessageTokens, estimateTextTokens } from './token-estimate';

/** Room kept free for the model's reply: 15 % of the window, between 1k and 16k tokens. */
export const replyReserve = (contextWindow: number): number =>
  Math.min(16_384, Math.max(1_024, Math.floor(contextWindow * 0.15)));

/** Outputs smaller than this are not worth eliding: the marker would cost about as much. */
const ELIDE_MIN_TOKENS = 64;
const DROPPED_QUESTIONS_SHOWN = 5;

export interface FitOptions {
  readonly contextWindow: number;
  /** What every request carries besides the messages: the system prompt and the tool schemas. */
  readonly fixedTokens: number;
}

export interface Fitted {
  readonly messages: ModelMessage[];
  readonly report: ContextReport;
  /**
   * The index (in the input) of the last message left out or whose tool output was elided; -1 when
   * nothing was cut. What lies up to it is what the model no longer sees whole (memory-capture.ts).
   */
  readonly cutThrough: number;
}

const elisionMarker = (toolName: string, tokens: number) =>
  `[Elided to fit the context window: this ${toolName} output (~${tokens} tokens) was removed. Call the tool again if you still need it.]`;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function userText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Trims a conversation to fit the model's window, in the order that loses least: first old tool
 * outputs are replaced by a marker (oldest first, the latest results kept), then whole older
 * exchanges are dropped (oldest first, never the current one) and the model is told what the
 * user had asked in them. The system prompt is not part of `messages` and is never touched.
 * Answers context_too_long when even the current exchange alone cannot fit.
 */
export function fitToContext(input: readonly ModelMessage[], options: FitOptions): Result<Fitted> {
  const budget = options.contextWindow - replyReserve(options.contextWindow) - options.fixedTokens;
  if (budget <= 0) {
    return err(
      'context_too_long',
      'The system prompt and tools alone fill the context window; raise the context window in Settings.',
    );
  }
  const messages = [...input];
  const sizes = messages.map(estimateMessageTokens);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let elided = 0;
  let dropped = 0;
  let cutThrough = -1;
  const report = (): ContextReport => ({
    estimatedTokens: total,
    budgetTokens: budget,
    elidedToolOutputs: elided,
    droppedMessages: dropped,
  });
  if (total <= budget) return ok({ messages, report: report(), cutThrough });

  const lastTool = messages.findLastIndex((message) => message.role === 'tool');
  const elideIn = (index: number, inputIndex: number) => {
    const message = messages[index];
    if (message?.role !== 'tool') return;
    let changed = false;
    const content = message.content.map((part) => {
      if (total <= budget || part.type !== 'tool-result') return part;
      const partTokens = estimateMessageTokens({ role: 'tool', content: [part] });
      if (partTokens < ELIDE_MIN_TOKENS) return part;
      changed = true;
      elided++;
      const replacement = {
        ...part,
        output: { type: 'text' as const, value: elisionMarker(part.toolName, partTokens) },
      };
      total -= partTokens - estimateMessageTokens({ role: 'tool', content: [replacement] });
      return replacement;
    });
    if (changed) {
      cutThrough = Math.max(cutThrough, inputIndex);
      const replaced: ToolModelMessage = { ...message, content };
      messages[index] = replaced;
      sizes[index] = estimateMessageTokens(replaced);
    }
  };

  // 1. Old tool outputs, oldest first; the latest results are what the model is about to read.
  for (let i = 0; i < messages.length && total > budget; i++) if (i !== lastTool) elideIn(i, i);

  // 2. Whole exchanges, oldest first, never the last one.
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  let cut = 0;
  const droppedQuestions: string[] = [];
  while (total > budget && cut < lastUser) {
    let next = cut + 1;
    while (next < lastUser && messages[next]?.role !== 'user') next++;
    for (let i = cut; i < next; i++) {
      total -= sizes[i] ?? 0;
      const message = messages[i];
      if (message?.role === 'user') droppedQuestions.push(clip(userText(message).replace(/\s+/g, ' ').trim(), 100));
    }
    dropped += next - cut;
    cut = next;
    cutThrough = Math.max(cutThrough, cut - 1);
  }
  let kept = messages.slice(cut);
  if (cut > 0) {
    const asked = droppedQuestions
      .slice(-DROPPED_QUESTIONS_SHOWN)
      .map((question) => `"${question}"`)
      .join('; ');
    const marker = `[Context note: the ${dropped} earliest messages of this conversation were left out to fit the context window. Among them the user asked: ${asked}.]`;
    const first = kept[0];
    if (first?.role === 'user') {
      const withNote: ModelMessage =
        typeof first.content === 'string'
          ? { ...first, content: `${marker}\n\n${first.content}` }
          : { ...first, content: [{ type: 'text', text: marker }, ...first.content] };
      kept = [withNote, ...kept.slice(1)];
      total += estimateTextTokens(marker);
    }
  }
  if (total > budget && lastTool >= cut) {
    // 3. Only the current exchange is left: its latest tool outputs go too.
    messages.splice(0, messages.length, ...kept);
    sizes.splice(0, sizes.length, ...kept.map(estimateMessageTokens));
    elideIn(lastTool - cut, lastTool);
    kept = messages;
  }
  if (total > budget) {
    return err(
      'context_too_long',
      `The message is too long for the model's context window (about ${total} tokens for ${budget} available). Shorten it or raise the context window in Settings.`,
      { estimatedTokens: total, budgetTokens: budget },
    );
  }
  return ok({ messages: kept, report: report(), cutThrough });
}
