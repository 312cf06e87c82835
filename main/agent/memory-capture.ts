import { dynamicTool, experimental_streamTextLowMemory as streamText, isStepCount, jsonSchema } from 'ai';
import type { LanguageModel, ModelMessage } from 'ai';
import { z } from 'zod';
import type { ChatEvent, MemoryCapture } from '../../shared/ipc/chat';
import type { ProviderSettings } from '../../shared/settings';
import type { NewRecord } from '../domain/conversations/transcript-records';
import { toTurnError } from '../domain/providers/provider-errors';
import type { Logger } from '../platform/logging/logger';
import type { ToolDescriptor, ToolExecutor } from '../tool-calls/tool-executor';
import { toolJsonSchema } from '../tool-calls/tool-schema';
import { appendTarget, entryTextSchema, memoryAppendTool } from '../tools/memory-append';
import { fitToContext } from './context-budget';
import { estimateTextTokens } from './token-estimate';
import type { CaptureState } from './capture-state';

/**
 * Memory kept before it is cut (issue 31): when a turn's request is about to leave out or elide
 * earlier exchanges, one silent model call (same provider and model, only memory_append offered,
 * writing only to today's daily note) first keeps what in them is worth remembering. Each exchange
 * is offered once: the transcript remembers through which user message a capture was made.
 */

/** What the model answers when nothing is worth keeping (any reply without a call means the same). */
export const NOTHING_TO_KEEP = 'NOTHING_TO_KEEP';

export interface CapturePlan {
  /** The exchanges to offer, whole (tool outputs as they were, not elided). */
  readonly messages: ModelMessage[];
  /** The user message of the last exchange offered. */
  readonly throughMessageId: string;
}

/**
 * Which exchanges this request cuts (up to `cutThrough`, context-budget.ts) that no capture was
 * offered yet; undefined when there are none. The exchange being answered is never offered: it
 * stays in the request whatever is elided of it.
 */
export function planCapture(
  history: readonly ModelMessage[],
  cutThrough: number,
  state: CaptureState,
): CapturePlan | undefined {
  if (cutThrough < 0) return undefined;
  const starts = history.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  // The history was built from the same transcript as the ids; if they disagree, offer nothing rather than guess.
  if (starts.length !== state.userMessageIds.length) return undefined;
  const last = Math.min(
    starts.findLastIndex((start) => start <= cutThrough),
    starts.length - 2,
  );
  const first = state.capturedThrough === undefined ? 0 : state.userMessageIds.indexOf(state.capturedThrough) + 1;
  const throughMessageId = state.userMessageIds[last];
  if (last < first || throughMessageId === undefined) return undefined;
  return { messages: history.slice(starts[first], starts[last + 1]), throughMessageId };
}

/** The instruction that follows the offered exchanges, as Familiar's own message. */
export const captureInstruction = (notePath: string): string =>
  `[From Familiar, not from the user] The messages above are about to leave your context window. ` +
  `Before they do, keep in today's daily note (${notePath}) whatever in them is worth remembering later: ` +
  `facts about the user, decisions, commitments, open tasks, things learned. Call ${memoryAppendTool.name} ` +
  `once per note, a sentence or a few lines each, and skip what MEMORY.md or USER.md already say. ` +
  `If nothing is worth keeping, reply ${NOTHING_TO_KEEP}. Do not answer or continue the conversation now.`;

const captureInput = z.object({ text: entryTextSchema });
const keptEntry = z.object({ path: z.string(), entry: z.string() });

export interface CaptureCall {
  readonly conversationId: string;
  readonly model: LanguageModel;
  readonly settings: ProviderSettings;
  readonly executor: ToolExecutor;
  /** The turn's system prompt: the persona and memory the model answers with. */
  readonly system: string;
  readonly plan: CapturePlan;
  readonly signal: AbortSignal;
  readonly secrets: () => readonly string[];
}

/**
 * The silent call: the offered exchanges, then the instruction, with memory_append as the only tool
 * (its `file` fixed to today's note), through the one tool-call pipeline (admit, policy, audit,
 * provenance) as an unattended call: what would need the user is refused, never asked. One step:
 * the calls run, and their results need not go back to the model.
 */
export async function runCapture(call: CaptureCall): Promise<MemoryCapture> {
  const notePath = appendTarget('today', new Date());
  const descriptor: ToolDescriptor = {
    name: memoryAppendTool.name,
    description: `Add a timestamped entry at the end of today's daily note (${notePath}); nothing already there changes.`,
    input: captureInput,
  };
  const schema = toolJsonSchema(descriptor);
  const fitted = fitToContext([...call.plan.messages, { role: 'user', content: captureInstruction(notePath) }], {
    contextWindow: call.settings.contextWindow,
    fixedTokens:
      estimateTextTokens(call.system) +
      estimateTextTokens(descriptor.name + descriptor.description + JSON.stringify(schema)),
  });
  if (!fitted.ok) return { kept: [], error: fitted.error.message };

  const kept: MemoryCapture['kept'] = [];
  let error: string | undefined;
  try {
    const result = streamText({
      model: call.model,
      instructions: call.system,
      messages: fitted.value.messages,
      tools: {
        [descriptor.name]: dynamicTool({
          description: descriptor.description,
          inputSchema: jsonSchema(() => schema),
          execute: (args, { toolCallId, abortSignal }) =>
            call.executor.execute(
              {
                conversationId: call.conversationId,
                toolCallId,
                name: memoryAppendTool.name,
                // Whatever the model sent for `file`, the capture writes only to today's daily note.
                args: { ...(typeof args === 'object' && args !== null ? args : {}), file: 'today' },
              },
              abortSignal ?? call.signal,
              { unattended: true },
            ),
        }),
      },
      stopWhen: isStepCount(1),
      toolCallConcurrency: 1,
      maxRetries: 0,
      abortSignal: call.signal,
      ...(call.settings.temperature === undefined ? {} : { temperature: call.settings.temperature }),
      onError: () => undefined,
    });
    for await (const part of result.stream) {
      if (part.type === 'tool-result') {
        const output = part.output as { ok: boolean; value?: unknown };
        const entry = output.ok ? keptEntry.safeParse(output.value) : undefined;
        if (entry?.success === true) kept.push(entry.data);
      } else if (part.type === 'error') {
        error ??= toTurnError(part.error, call.settings.model, call.secrets()).message;
      }
    }
  } catch (thrown) {
    if (!call.signal.aborted) error ??= toTurnError(thrown, call.settings.model, call.secrets()).message;
  }
  if (call.signal.aborted) error ??= 'The turn was stopped before the capture finished.';
  return error === undefined ? { kept } : { kept, error };
}

export interface CaptureTurn extends Omit<CaptureCall, 'plan'> {
  readonly turnId: string;
  /** The tools offered this turn: memory_append is among them only while memory is on for the conversation. */
  readonly descriptors: readonly ToolDescriptor[];
  readonly history: readonly ModelMessage[];
  /** From fitToContext: the last message this turn's request cuts, -1 when none. */
  readonly cutThrough: number;
  readonly state: CaptureState;
  readonly record: (records: readonly NewRecord[]) => Promise<void>;
  readonly event: (event: ChatEvent) => void;
  readonly logger: Logger;
}

/**
 * Before a turn whose request cuts exchanges no capture was offered yet, with memory on for the
 * conversation (the switch on, not incognito: the pipeline offers memory_append only then), keeps
 * what is worth keeping and says so in the transcript and to the page. Never fails the turn.
 */
export async function captureBeforeCut(turn: CaptureTurn): Promise<void> {
  if (!turn.descriptors.some((descriptor) => descriptor.name === memoryAppendTool.name)) return;
  const plan = planCapture(turn.history, turn.cutThrough, turn.state);
  if (plan === undefined) return;
  const capture = await runCapture({ ...turn, plan });
  if (capture.error !== undefined) turn.logger.warn(`memory capture before a cut failed: ${capture.error}`);
  await turn.record([
    { type: 'memory-capture', turnId: turn.turnId, throughMessageId: plan.throughMessageId, ...capture },
  ]);
  turn.event({ type: 'memory-captured', conversationId: turn.conversationId, turnId: turn.turnId, capture });
}
