import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { defaultPolicy } from '../../shared/policy';
import type { Policy } from '../../shared/policy';
import type { Result } from '../../shared/result';
import { createApprovalBroker } from '../domain/approvals/broker';
import type { AuditEntry } from '../platform/audit/audit-log';
import type { ApprovalMode } from '../tool-calls/ask';
import { createToolCalls } from '../tool-calls/tool-calls';
import type { ToolCalls, ToolCallsOptions } from '../tool-calls/tool-calls';
import type { AnyTool } from '../tools/define-tool';
import type { RunCommandOutput } from '../tools/run-command';
import { createToolKit } from './tool-kit';
import type { ToolKit, ToolKitOptions } from './tool-kit';

export type KitAnswer = 'approve' | 'reject' | 'conversation' | 'workspace';

/** For tests (not shipped): real tools behind the real tool-call pipeline, the user answering every approval. */
export interface ToolCallsKit {
  readonly kit: ToolKit;
  readonly toolCalls: ToolCalls;
  /** Every approval request raised, in order. */
  readonly requests: ApprovalRequest[];
  /** Every audit line the pipeline wrote, in order (refusals included). */
  readonly audit: AuditEntry[];
  /**
   * How the simulated user answers; default approve. 'conversation' and 'workspace' approve and
   * allow for the rest of the conversation, or (a network question) always in this workspace.
   */
  answer: KitAnswer;
  /** How the simulated user answers network questions (a running command's host); default: as `answer`. */
  networkAnswer: KitAnswer | undefined;
  /** How long the simulated user takes to answer (default: the next tick). */
  answerDelayMs: number;
  call(name: string, args: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
}

export type ToolCallsKitOptions = ToolKitOptions & {
  readonly approvalMode?: ApprovalMode;
  readonly policy?: Policy;
  /** Settings → Commands: confined commands without network run without asking (default: they ask). */
  readonly confinedOfflineWithoutAsking?: () => boolean;
};

export async function createToolCallsKit(
  makeTempDir: (prefix?: string) => Promise<string>,
  tools: readonly AnyTool[],
  options: ToolCallsKitOptions = {},
): Promise<ToolCallsKit> {
  const kit = await createToolKit(makeTempDir, options);
  const requests: ApprovalRequest[] = [];
  const audit: AuditEntry[] = [];
  const state: Pick<ToolCallsKit, 'answer' | 'networkAnswer' | 'answerDelayMs'> = {
    answer: 'approve',
    networkAnswer: undefined,
    answerDelayMs: 0,
  };
  const broker = createApprovalBroker({
    onRequested: (request) => {
      requests.push(request);
      const answer = (request.network === undefined ? undefined : state.networkAnswer) ?? state.answer;
      // The user answers on the next tick, as a page would (or later, when the test says so).
      setTimeout(
        () =>
          broker.answer(
            answer === 'reject'
              ? { id: request.id, decision: 'reject', reason: 'not now' }
              : {
                  id: request.id,
                  decision: 'approve',
                  allowForConversation: answer !== 'approve',
                  ...(answer === 'workspace' ? { allowForWorkspace: true } : {}),
                },
          ),
        state.answerDelayMs,
      );
    },
    onResolved: () => undefined,
  });
  const { toolCalls, call } = createTestToolCalls(kit, {
    tools,
    broker,
    approvalMode: options.approvalMode ?? 'interactive',
    ...(options.policy === undefined ? {} : { policy: () => options.policy! }),
    ...(options.confinedOfflineWithoutAsking === undefined
      ? {}
      : { confinedOfflineWithoutAsking: options.confinedOfflineWithoutAsking }),
    audit: { record: (entry) => Promise.resolve(void audit.push(entry)) },
    limits: kit.services.limits,
  });
  return {
    kit,
    toolCalls,
    requests,
    audit,
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    get networkAnswer() {
      return state.networkAnswer;
    },
    set networkAnswer(value) {
      state.networkAnswer = value;
    },
    get answerDelayMs() {
      return state.answerDelayMs;
    },
    set answerDelayMs(value) {
      state.answerDelayMs = value;
    },
    call: (name, args, signal) => call(name, args, 'c1', signal),
  };
}

/** A call's value, which the test expects to have succeeded (a failure throws, naming its code). */
export function callValue<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** A call's error, which the test expects to have failed (a success throws, showing its value). */
export function callError(result: Result<unknown>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value).slice(0, 300)}`);
  return result.error;
}

/** Calls run_command through the kit's pipeline with `command` as a shell line (20 s at most); a failed call throws. */
export async function runShell(kit: ToolCallsKit, command: string): Promise<RunCommandOutput> {
  const result = await kit.call('run_command', { command, shell: true, timeout: 20 });
  if (!result.ok) throw new Error(`run_command failed: ${JSON.stringify(result.error)}`);
  return result.value as RunCommandOutput;
}

/** A tool call as a test makes it: a name, arguments, and optionally its conversation and signal. */
export type TestCall = (
  name: string,
  args: unknown,
  conversationId?: string,
  signal?: AbortSignal,
) => Promise<Result<unknown>>;

/**
 * For tests (not shipped): the real pipeline over a kit's environment, as the tests build it: the
 * default policy, memory on, no system prompt, interactive approvals, unless `options` says otherwise.
 * `call` gives every call its own id.
 */
export function createTestToolCalls(
  kit: ToolKit,
  options: Pick<ToolCallsOptions, 'tools' | 'broker' | 'audit'> & Partial<ToolCallsOptions>,
): { readonly toolCalls: ToolCalls; readonly call: TestCall } {
  const toolCalls = createToolCalls({
    policy: defaultPolicy,
    memoryOn: () => true,
    environment: () => kit.env,
    approvalMode: 'interactive',
    systemPrompt: () => Promise.resolve(''),
    // web_search is offered while the kit's environment has a search service, as in the core.
    searchAvailable: () => kit.env.web.searchService() !== undefined,
    ...options,
  });
  let counter = 0;
  const call: TestCall = (name, args, conversationId = 'c1', signal = new AbortController().signal) =>
    toolCalls.execute({ conversationId, toolCallId: `t${(counter += 1)}`, name, args }, signal);
  return { toolCalls, call };
}
