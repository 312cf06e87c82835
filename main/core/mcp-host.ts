import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CreateMessageRequest, CreateMessageResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { importMcpServers } from '../../shared/mcp-servers';
import type { McpServerConfig } from '../../shared/mcp-servers';
import type { FamiliarError } from '../../shared/errors';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ApprovalInput, ApprovalOutcome } from '../domain/approvals/broker';
import { elicitationQuestion, elicitResult, samplingQuestion } from '../domain/mcp-servers/mcp-server-questions';
import type { ServerAsker } from '../domain/mcp-servers/mcp-server-manager';
import { createMcpApprovals } from '../domain/mcp-servers/mcp-approvals';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import { McpServerManager } from '../domain/mcp-servers/mcp-server-manager';
import type { McpServerManagerOptions } from '../domain/mcp-servers/mcp-server-manager';
import { startMcpServerProcess } from '../domain/mcp-servers/mcp-server-process';
import type { McpToolEntry } from '../domain/mcp-servers/mcp-tool-list';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { EventHub } from '../platform/ipc/event-hub';
import type { Logger } from '../platform/logging/logger';
import type { HostFolders } from '../platform/processes/process-rules';
import type { SettingsStore } from '../platform/storage/settings-store';
import type { AnyTool } from '../tools/define-tool';
import { mcpServerTool } from '../tools/mcp/mcp-server-tool';

export interface McpHostOptions {
  readonly settings: SettingsStore;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly version: string;
  /** Familiar's home: each server's data folder is `<home>/mcp-servers/<id>`. */
  readonly home: string;
  /** The folders as a confined process gets them, at the time a server starts. */
  readonly folders: () => Promise<HostFolders>;
  readonly workspaceRoot: () => string;
  /** Whether servers start at all: only where a person can answer their approvals (not MCP mode). */
  readonly start: boolean;
  readonly startTimeoutMs?: number;
  /**
   * Puts a server's question to the user in the one approval dialog (the broker's request). Absent:
   * servers are offered neither elicitation nor sampling.
   */
  readonly ask?: (input: ApprovalInput, signal: AbortSignal) => Promise<ApprovalOutcome>;
  /** Runs an approved sampling request on the conversation's model, at most `maxTokens` tokens. */
  readonly sample?: (
    params: CreateMessageRequest['params'],
    maxTokens: number,
    signal: AbortSignal,
  ) => Promise<Result<CreateMessageResult>>;
}

export interface McpHost {
  readonly manager: McpServerManager;
  readonly approvals: McpApprovals;
  /** The ready servers' tools, as Familiar tools (the same objects while a server's list is unchanged). */
  tools(): readonly AnyTool[];
  /** A `server__tool` name of a configured server that is not ready: mcp_server_unavailable, saying why. */
  missing(name: string): FamiliarError | undefined;
  readonly handlers: Pick<Handlers, 'mcpServers.list' | 'mcpServers.restart' | 'mcpServers.import'>;
  /** Told whenever a server's status or tools change (the tools panel follows). */
  subscribe(listener: () => void): void;
  /** Another workspace was opened: each server starts again with it as its root and sandbox. */
  workspaceChanged(): void;
  dispose(): Promise<void>;
}

/** Familiar as an MCP host (issue 29): the user's servers from settings, their tools, their approvals. */
export function createMcpHost(options: McpHostOptions): McpHost {
  const { settings } = options;
  const state = () => ({ servers: manager.statuses() });
  const listeners = new Set<() => void>();
  const manager = new McpServerManager({
    startProcess: async (config, onRefused) => {
      const folders = await options.folders();
      return startMcpServerProcess(
        config,
        {
          folders: () => folders,
          dataRoot: join(options.home, 'mcp-servers'),
          passEnvironment: () => settings.get().commands.passEnvironment,
        },
        onRefused,
      );
    },
    workspaceRoot: options.workspaceRoot,
    version: options.version,
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    log: (message) => options.logger.info(`mcp: ${message}`),
    ...serverQuestions(options),
    onChange: () => {
      options.events.emit('mcpServers.changed', state());
      for (const listener of listeners) listener();
    },
  });
  const approvals = createMcpApprovals({
    servers: () => settings.get().mcp.servers,
    alwaysAllowed: () => settings.get().mcp.alwaysAllowed,
    saveAlwaysAllowed: async (alwaysAllowed) => void (await settings.update({ mcp: { alwaysAllowed } })),
    runsUnconfined: (server) => manager.statuses().find((status) => status.id === server)?.confined === false,
  });
  const made = new WeakMap<McpToolEntry, AnyTool>();
  const call = manager.call.bind(manager);
  const tools = () =>
    manager.tools().map((entry) => {
      let tool = made.get(entry);
      if (tool === undefined) {
        tool = mcpServerTool(entry, call);
        made.set(entry, tool);
      }
      return tool;
    });
  const wanted = (): readonly McpServerConfig[] => (options.start ? settings.get().mcp.servers : []);
  const unsubscribe = settings.subscribe((next, previous) => {
    if (JSON.stringify(next.mcp.servers) !== JSON.stringify(previous.mcp.servers)) manager.sync(wanted());
  });
  // In the background: the first message does not wait for any server.
  manager.sync(wanted());
  return {
    manager,
    approvals,
    tools,
    missing(name) {
      const at = name.indexOf('__');
      if (at <= 0) return undefined;
      const status = manager.statuses().find((server) => server.id === name.slice(0, at));
      if (status === undefined || status.state === 'ready') return undefined;
      const why = status.state === 'disabled' ? 'switched off in Settings → MCP servers' : status.state;
      return {
        code: 'mcp_server_unavailable',
        message: `The MCP server "${status.id}" is not available (${why})${status.error === undefined ? '' : `: ${status.error}`}. Do not retry its tools now.`,
        details: { server: status.id, state: status.state },
      };
    },
    handlers: {
      'mcpServers.list': () => ok(state()),
      'mcpServers.restart': async ({ id }) => {
        const restarted = await manager.restart(id);
        return restarted.ok ? ok(state()) : restarted;
      },
      'mcpServers.import': async ({ text }) => {
        const imported = importMcpServers(text);
        if (!imported.ok) return { ok: false, error: { code: 'invalid_payload', message: imported.message } };
        const kept = settings.get().mcp.servers;
        const taken = new Set(kept.map((server) => server.id));
        const added = imported.servers.map((server) => {
          let id = server.id;
          for (let n = 2; taken.has(id); n++) id = `${server.id.slice(0, 36)}-${n}`;
          taken.add(id);
          return { ...server, id };
        });
        await settings.update({ mcp: { servers: [...kept, ...added] } });
        return ok({ added, skipped: imported.skipped });
      },
    },
    subscribe: (listener) => void listeners.add(listener),
    workspaceChanged() {
      void manager.workspaceChanged();
    },
    async dispose() {
      unsubscribe();
      await manager.dispose();
    },
  };
}

/** A server's questions (elicitation, sampling) as approvals in the conversation whose call it was answering. */
function serverQuestions(options: McpHostOptions): Pick<McpServerManagerOptions, 'onElicit' | 'onSample'> {
  const { ask, sample } = options;
  if (ask === undefined) return {};
  const log = (message: string) => options.logger.info(`mcp: ${message}`);
  const onElicit = async (
    asker: ServerAsker,
    params: Parameters<NonNullable<McpServerManagerOptions['onElicit']>>[1],
    signal: AbortSignal,
  ): Promise<ElicitResult> => {
    // Outside a call of a conversation nobody is there to answer: the question is dismissed.
    if (asker.call === undefined) {
      log(`${asker.server}: asked the user outside a tool call; cancelled`);
      return { action: 'cancel' };
    }
    const question = elicitationQuestion(asker, params);
    if (!question.ok) {
      log(`${asker.server}: ${question.error.message}; declined`);
      return { action: 'decline' };
    }
    return elicitResult(await ask(question.value, signal), params.mode === 'url' ? 'url' : 'form');
  };
  if (sample === undefined) return { onElicit };
  const onSample = async (
    asker: ServerAsker,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult> => {
    // -1: the code the specification gives a user's refusal of a sampling request.
    if (asker.call === undefined) throw new McpError(-1, 'Sampling is answered only during a call of its tools.');
    const question = samplingQuestion(asker, params, options.settings.get().mcp.samplingMaxTokens);
    const outcome = await ask(question, signal);
    if (!outcome.approved) throw new McpError(-1, `The user declined the sampling request: ${outcome.reason}`);
    const answered = await sample(params, question.sampling?.maxTokens ?? 1, signal);
    if (!answered.ok) throw new McpError(-32603, `The model could not answer: ${answered.error.message}`);
    return answered.value;
  };
  return { onElicit, onSample };
}
