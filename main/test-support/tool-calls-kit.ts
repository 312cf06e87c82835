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
import { createToolKit } from './tool-kit';
import type { ToolKit, ToolKitOptions } from './tool-kit';

/** For tests (not shipped): real tools behind the real tool-call pipeline, the user answering every approval. */
export interface ToolCallsKit {
  readonly kit: ToolKit;
  readonly toolCalls: ToolCalls;
  /** Every approval request raised, in order. */
  readonly requests: ApprovalRequest[];
  /** Every audit line the pipeline wrote, in order (refusals included). */
  readonly audit: AuditEntry[];
  /** How the simulated user answers; default approve. */
  answer: 'approve' | 'reject';
  call(name: string, args: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
}

export async function createToolCallsKit(
  makeTempDir: (prefix?: string) => Promise<string>,
  tools: readonly AnyTool[],
  options: ToolKitOptions & { readonly approvalMode?: ApprovalMode; readonly policy?: Policy } = {},
): Promise<ToolCallsKit> {
  const kit = await createToolKit(makeTempDir, options);
  const requests: ApprovalRequest[] = [];
  const audit: AuditEntry[] = [];
  const state: { answer: 'approve' | 'reject' } = { answer: 'approve' };
  const broker = createApprovalBroker({
    onRequested: (request) => {
      requests.push(request);
      // The user answers on the next tick, as a page would.
      setImmediate(() =>
        broker.answer(
          state.answer === 'approve'
            ? { id: request.id, decision: 'approve', allowForConversation: false }
            : { id: request.id, decision: 'reject', reason: 'not now' },
        ),
      );
    },
    onResolved: () => undefined,
  });
  const { toolCalls, call } = createTestToolCalls(kit, {
    tools,
    broker,
    approvalMode: options.approvalMode ?? 'interactive',
    ...(options.policy === undefined ? {} : { policy: () => options.policy! }),
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
    call: (name, args, signal) => call(name, args, 'c1', signal),
  };
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
    ...options,
  });
  let counter = 0;
  const call: TestCall = (name, args, conversationId = 'c1', signal = new AbortController().signal) =>
    toolCalls.execute({ conversationId, toolCallId: `t${(counter += 1)}`, name, args }, signal);
  return { toolCalls, call };
}
