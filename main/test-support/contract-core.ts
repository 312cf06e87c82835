import { afterEach, vi } from 'vitest';
import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { approvalRequestSchema } from '../../shared/ipc/approvals';
import type { ChatEvent } from '../../shared/ipc/chat';
import { chatEventSchema } from '../../shared/ipc/chat';
import type { Core } from '../core/create-core';
import type { CallContext } from '../platform/ipc/dispatcher';
import { familiarPaths } from '../platform/storage/paths';
import type { FamiliarPaths } from '../platform/storage/paths';
import { createTestCore } from './test-core';
import type { SchedulerClock } from '../domain/schedules/scheduler';

const ctx: CallContext = { transport: 'direct', clientId: 'test' };

export interface ContractCoreOptions {
  readonly home: string;
  /** The scripted model: `${url}/v1` speaks OpenAI Chat Completions and Anthropic Messages. */
  readonly llmUrl: string;
  readonly kind?: 'openai-compatible' | 'anthropic';
  /** The folder opened (default: the workspace in the home). */
  readonly workspace?: string;
  /** The heartbeat's and tasks' clock (schedule tests move it). */
  readonly scheduleClock?: SchedulerClock;
}

/** A real core driven only through the contract, as the page drives it, with what a test watches. */
export interface ContractCore {
  readonly core: Core;
  readonly paths: FamiliarPaths;
  /** Every chat.event, in order (a test may empty it between turns). */
  readonly chatEvents: ChatEvent[];
  readonly requested: ApprovalRequest[];
  /** Dispatches one call; a refusal throws with its code, so a test reads the value directly. */
  readonly call: <T = unknown>(name: string, input: unknown) => Promise<T>;
  /** The last chat event once it ends the turn. */
  readonly turnEnd: () => Promise<ChatEvent>;
  /** The newest approval request, once one has come. */
  readonly pending: () => Promise<ApprovalRequest>;
  /** Shuts the core down now (a restart), instead of after the test. */
  readonly dispose: (reason: string) => Promise<void>;
}

/** Starts cores with the provider set to the scripted model; each is disposed after its test. */
export function useContractCores(): (options: ContractCoreOptions) => Promise<ContractCore> {
  const cores: Core[] = [];
  afterEach(async () => {
    await Promise.all(cores.splice(0).map((core) => core.dispose('test over')));
  });
  return async (options) => {
    const core = await createTestCore({
      home: options.home,
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(options.scheduleClock === undefined ? {} : { scheduleClock: options.scheduleClock }),
    });
    cores.push(core);
    const chatEvents: ChatEvent[] = [];
    const requested: ApprovalRequest[] = [];
    core.events.subscribe((name, payload) => {
      if (name === 'approvals.requested') requested.push(approvalRequestSchema.parse(payload));
      if (name === 'chat.event') chatEvents.push(chatEventSchema.parse(payload));
    });
    const call = async <T = unknown>(name: string, input: unknown): Promise<T> => {
      const result = await core.dispatch(name, input, ctx);
      if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
      return result.value as T;
    };
    const kind = options.kind ?? 'openai-compatible';
    await call('providers.save', {
      provider: { kind, model: 'scripted-model', baseUrl: `${options.llmUrl}/v1` },
      ...(kind === 'anthropic' ? { apiKey: 'sk-ant-test' } : {}),
    });
    return {
      core,
      paths: familiarPaths(options.home),
      chatEvents,
      requested,
      call,
      turnEnd: () =>
        vi.waitFor(
          () => {
            const last = chatEvents.at(-1);
            if (last === undefined || !['turn-finished', 'turn-stopped', 'turn-error'].includes(last.type)) {
              throw new Error('running');
            }
            return last;
          },
          { timeout: 10_000 },
        ),
      pending: () => vi.waitFor(() => requested.at(-1) ?? Promise.reject(new Error('no approval yet'))),
      dispose: (reason) => {
        cores.splice(cores.indexOf(core), 1);
        return core.dispose(reason);
      },
    };
  };
}
