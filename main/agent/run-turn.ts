import { messageOf } from '../../shared/errors';
import {
  experimental_streamTextLowMemory as streamText,
  InvalidToolInputError,
  isStepCount,
  NoSuchToolError,
} from 'ai';
import type { LanguageModel, LanguageModelUsage, ModelMessage } from 'ai';
import type { ContextReport, TurnError, Usage, UserMessage } from '../../shared/ipc/chat';
import type { ProviderSettings } from '../../shared/settings';
import { toToolResultView } from '../domain/conversations/tool-result-view';
import type { NewRecord, StoredToolResult } from '../domain/conversations/transcript-records';
import type { Logger } from '../platform/logging/logger';
import { toTurnError } from '../domain/providers/provider-errors';
import { toolResultImages } from '../domain/providers/language-model';
import { fitToContext } from './context-budget';
import { captureBeforeCut } from './memory-capture';
import type { CaptureState } from './capture-state';
import { unansweredResult } from './model-history';
import { estimateTextTokens } from './token-estimate';
import type { ToolExecutor } from '../tool-calls/tool-executor';
import { toolJsonSchema } from '../tool-calls/tool-schema';
import { buildToolSet } from './tool-set';
import { progressEvents } from './tool-progress-events';
import type { TurnEmitter } from './turn-emitter';

export interface TurnInput {
  readonly conversationId: string;
  readonly turnId: string;
  readonly userMessage: UserMessage | null;
  readonly retryOf: string | null;
  /** The conversation so far, ending with the message to answer; trimmed here to fit. */
  readonly history: readonly ModelMessage[];
  /** Which exchanges of the history a memory capture was already offered (memory-capture.ts). */
  readonly capture: CaptureState;
  readonly model: LanguageModel;
  readonly settings: ProviderSettings;
  readonly executor: ToolExecutor;
  readonly signal: AbortSignal;
  readonly emitter: TurnEmitter;
  /** Appends transcript records; `sync` at the turn boundary. */
  readonly record: (records: readonly NewRecord[], options?: { sync?: boolean }) => Promise<void>;
  /** Saved secrets, scrubbed from error messages. */
  readonly secrets: () => readonly string[];
  readonly logger: Logger;
}

export type TurnOutcome = 'complete' | 'stopped' | 'error';

const toUsage = (usage: LanguageModelUsage | undefined): Usage => {
  const result: Usage = {};
  if (usage?.inputTokens !== undefined) result.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) result.outputTokens = usage.outputTokens;
  if (usage?.totalTokens !== undefined) result.totalTokens = usage.totalTokens;
  return result;
};

const emptyReport = (): ContextReport => ({
  estimatedTokens: 0,
  budgetTokens: 0,
  elidedToolOutputs: 0,
  droppedMessages: 0,
});

/** Why the SDK refused a call before it reached the executor, as a typed result for the model. */
function refusedCall(error: unknown): StoredToolResult {
  if (NoSuchToolError.isInstance(error)) return { ok: false, error: { code: 'unknown_tool', message: error.message } };
  if (InvalidToolInputError.isInstance(error))
    return { ok: false, error: { code: 'invalid_arguments', message: error.message } };
  return {
    ok: false,
    error: { code: 'internal_error', message: messageOf(error) },
  };
}

/**
 * Runs one turn: system prompt and tools from the executor, the history trimmed to the context
 * window, then the AI SDK's multi-step loop. Every stream part becomes a contract event and, at
 * block/step granularity, a transcript record; the turn ends with exactly one of turn-finished /
 * turn-stopped / turn-error, written and fsynced before it is announced.
 */
export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const { conversationId, turnId, emitter } = input;
  const ids = { conversationId, turnId };
  let step = -1;
  let text = '';
  let error: TurnError | undefined;
  let finishReason = 'stop';
  let lastStepReason: string | undefined;
  let steps = 0;
  let usage: Usage = {};
  const open = new Map<string, string>(); // toolCallId → tool name, until its result arrives
  let started = false;
  const announce = (context: ContextReport) => {
    started = true;
    emitter.event({ type: 'turn-started', ...ids, userMessage: input.userMessage, retryOf: input.retryOf, context });
  };

  const flushText = async () => {
    if (text === '') return;
    const block = text;
    text = '';
    await input.record([{ type: 'text', turnId, step: Math.max(step, 0), text: block }]);
  };
  const settleResult = async (toolCallId: string, name: string, result: StoredToolResult) => {
    open.delete(toolCallId);
    await input.record([{ type: 'tool-result', turnId, toolCallId, name, result }]);
    emitter.event({ type: 'tool-result', ...ids, toolCallId, name, result: toToolResultView(result) });
  };

  try {
    const system = await input.executor.systemPrompt(conversationId);
    const descriptors = input.executor.list(conversationId);
    let toolTokens = 0;
    for (const descriptor of descriptors) {
      toolTokens += estimateTextTokens(
        descriptor.name + descriptor.description + JSON.stringify(toolJsonSchema(descriptor)),
      );
    }
    const fitOptions = {
      contextWindow: input.settings.contextWindow,
      fixedTokens: estimateTextTokens(system) + toolTokens,
    };
    const fitted = fitToContext(input.history, fitOptions);
    announce(fitted.ok ? fitted.value.report : emptyReport());
    if (!fitted.ok) {
      error = { code: fitted.error.code, message: fitted.error.message, retryable: false };
    } else {
      // Earlier exchanges are about to leave the model's view: keep what is worth keeping first.
      await captureBeforeCut({
        ...input,
        system,
        descriptors,
        cutThrough: fitted.value.cutThrough,
        state: input.capture,
        event: (event) => emitter.event(event),
      });
      // The single-consumer variant of streamText (same engine and options): the loop reads the
      // stream once and never replays it, so buffering every part of a long reply is pure cost
      // (~15 % CPU on a 50k-token reply, see bench/stream-overhead.ts).
      const result = streamText({
        model: input.model,
        instructions: system,
        messages: fitted.value.messages,
        tools: buildToolSet(
          input.executor,
          conversationId,
          descriptors,
          input.signal,
          { images: toolResultImages(input.settings) },
          progressEvents(emitter, ids),
        ),
        stopWhen: isStepCount(input.settings.maxSteps),
        // One call at a time: approvals are asked in order and edits never race each other.
        toolCallConcurrency: 1,
        // Failures go to the user with a retry button (and the provider's Retry-After) instead of
        // silent back-off that would hide a bad key or a rate limit for a minute.
        maxRetries: 0,
        abortSignal: input.signal,
        ...(input.settings.temperature === undefined ? {} : { temperature: input.settings.temperature }),
        // Tool outputs pile up within a turn: re-fit before every step after the first.
        prepareStep: ({ stepNumber, messages }) => {
          if (stepNumber === 0) return undefined;
          const refit = fitToContext(messages, fitOptions);
          if (!refit.ok) return undefined; // the provider will answer context_too_long, mapped below
          const { elidedToolOutputs, droppedMessages } = refit.value.report;
          return elidedToolOutputs + droppedMessages > 0 ? { messages: refit.value.messages } : undefined;
        },
        // Errors arrive as stream parts below; without this the SDK would also print them.
        onError: () => undefined,
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case 'start-step':
            step++;
            break;
          case 'text-delta':
            text += part.text;
            emitter.text(part.text);
            break;
          case 'text-end':
            await flushText();
            break;
          case 'tool-call':
            await flushText();
            open.set(part.toolCallId, part.toolName);
            await input.record([
              {
                type: 'tool-call',
                turnId,
                step: Math.max(step, 0),
                toolCallId: part.toolCallId,
                name: part.toolName,
                args: part.input,
              },
            ]);
            emitter.event({
              type: 'tool-call',
              ...ids,
              toolCallId: part.toolCallId,
              name: part.toolName,
              args: part.input,
            });
            // A call the SDK could not parse (bad JSON, unknown tool) never runs: answer it now.
            if (part.invalid === true) await settleResult(part.toolCallId, part.toolName, refusedCall(part.error));
            break;
          case 'tool-result':
            // The pipeline already capped it (tool-calls/run.ts).
            await settleResult(part.toolCallId, part.toolName, part.output as StoredToolResult);
            break;
          case 'tool-error':
            // Already answered above when the call was invalid; otherwise the tool itself threw.
            if (open.has(part.toolCallId)) await settleResult(part.toolCallId, part.toolName, refusedCall(part.error));
            break;
          case 'finish-step':
            steps++;
            lastStepReason = part.finishReason;
            break;
          case 'finish':
            usage = toUsage(part.totalUsage);
            finishReason = part.finishReason;
            break;
          case 'error':
            error ??= toTurnError(part.error, input.settings.model, input.secrets());
            break;
          default:
            break;
        }
      }
    }
  } catch (thrown) {
    if (!input.signal.aborted) error ??= toTurnError(thrown, input.settings.model, input.secrets());
  }

  if (!started) announce(emptyReport());
  emitter.flush();
  await flushText();
  const stopped = input.signal.aborted && error === undefined;
  // Calls that never answered still need a result: the model's next request must pair every call.
  for (const [toolCallId, name] of [...open]) await settleResult(toolCallId, name, unansweredResult);

  if (stopped) {
    const reason = typeof input.signal.reason === 'string' ? input.signal.reason : 'Stopped by the user.';
    await input.record([{ type: 'turn-end', turnId, status: 'stopped', reason }], { sync: true });
    emitter.event({ type: 'turn-stopped', ...ids, reason });
    return 'stopped';
  }
  if (error !== undefined) {
    input.logger.warn(`turn ${turnId} failed: ${error.code}: ${error.message}`);
    await input.record([{ type: 'turn-end', turnId, status: 'error', error }], { sync: true });
    emitter.event({ type: 'turn-error', ...ids, error });
    return 'error';
  }
  // The step limit ended a tool loop the model had not finished.
  const reason = lastStepReason === 'tool-calls' && steps >= input.settings.maxSteps ? 'max-steps' : finishReason;
  await input.record([{ type: 'turn-end', turnId, status: 'complete', finishReason: reason, usage }], { sync: true });
  emitter.event({ type: 'turn-finished', ...ids, usage, finishReason: reason, steps });
  return 'complete';
}
