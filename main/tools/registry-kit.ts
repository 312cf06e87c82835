import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { defaultPolicy } from '../../shared/policy';
import type { Result } from '../../shared/result';
import { createApprovalBroker } from '../approvals/broker';
import { createToolRegistry } from '../policy/registry';
import type { ApprovalMode, RefusedCall, ToolRegistry } from '../policy/registry';
import type { AnyTool } from './define-tool';
import { createToolKit } from './test-kit';
import type { ToolKit, ToolKitOptions } from './test-kit';

/** For tests (not shipped): real tools behind the real registry, the user answering every approval. */
export interface RegistryKit {
  readonly kit: ToolKit;
  readonly registry: ToolRegistry;
  /** Every approval request raised, in order. */
  readonly requests: ApprovalRequest[];
  readonly refusals: RefusedCall[];
  /** How the simulated user answers; default approve. */
  answer: 'approve' | 'reject';
  call(name: string, args: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
}

export async function createRegistryKit(
  makeTempDir: (prefix?: string) => Promise<string>,
  tools: readonly AnyTool[],
  options: ToolKitOptions & { readonly approvalMode?: ApprovalMode } = {},
): Promise<RegistryKit> {
  const kit = await createToolKit(makeTempDir, options);
  const requests: ApprovalRequest[] = [];
  const refusals: RefusedCall[] = [];
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
  const registry = createToolRegistry({
    tools,
    policy: defaultPolicy,
    memoryEnabled: () => true,
    environment: () => kit.env,
    run: (tool, args, ctx, approval) => kit.runner.run(tool, args, ctx, approval),
    broker,
    approvalMode: options.approvalMode ?? 'interactive',
    recordRefusal: (call) => refusals.push(call),
    systemPrompt: () => Promise.resolve(''),
  });
  let counter = 0;
  return {
    kit,
    registry,
    requests,
    refusals,
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    call: (name, args, signal = new AbortController().signal) =>
      registry.execute({ conversationId: 'c1', toolCallId: `t${(counter += 1)}`, name, args }, signal),
  };
}
