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
import { askServerHost } from '../domain/mcp-servers/mcp-server-network';
import { startMcpServerProcess } from '../domain/mcp-servers/mcp-server-process';
import { createMcpSignIn } from '../domain/mcp-servers/mcp-sign-in';
import { decided, offerOf, readWorkspaceServers, WORKSPACE_MCP_FILE } from '../domain/mcp-servers/mcp-workspace-offer';
import type { McpToolEntry } from '../domain/mcp-servers/mcp-tool-list';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { EventHub } from '../platform/ipc/event-hub';
import type { Logger } from '../platform/logging/logger';
import type { HostFolders } from '../platform/processes/process-rules';
import type { SettingsStore } from '../platform/storage/settings-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import type { AnyTool } from '../tools/define-tool';
import { mcpServerTool } from '../tools/mcp/mcp-server-tool';

/** The composer's menus wait this long for a server's lists; a slower server is named in errors. */
const CATALOG_TIMEOUT_MS = 5000;

export interface McpHostOptions {
  readonly settings: SettingsStore;
  /** Where a server's sign-in (OAuth tokens and client) is kept. */
  readonly secrets: SecretStore;
  /** A server's config with its environment and header values from the secret store (mcp-secrets.ts). */
  readonly reveal: (config: McpServerConfig) => McpServerConfig;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly version: string;
  /** Familiar's home: each server's data folder is `<home>/mcp-servers/<id>`. */
  readonly home: string;
  /** The folders as a confined process gets them, at the time a server starts. */
  readonly folders: () => Promise<HostFolders>;
  readonly workspaceRoot: () => string;
  /** A file at the top of the open workspace, read through its sandbox (undefined: absent or unreadable). */
  readonly readWorkspaceFile: (name: string) => Promise<string | undefined>;
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
  readonly handlers: Pick<
    Handlers,
    | 'mcpServers.list'
    | 'mcpServers.restart'
    | 'mcpServers.import'
    | 'mcpServers.signIn'
    | 'mcpServers.decideOffer'
    | 'mcpServers.catalog'
  >;
  /** Told whenever a server's status or tools change (the tools panel follows). */
  subscribe(listener: () => void): void;
  /** Another workspace was opened: each server starts again with it as its root and sandbox. */
  workspaceChanged(): Promise<void>;
  /** Reads the workspace's `.mcp.json` again (a changed file is asked about again); the core calls it once it is whole. */
  refreshOffer(): Promise<void>;
  dispose(): Promise<void>;
}

/** Familiar as an MCP host (issue 29): the user's servers from settings, their tools, their approvals. */
export function createMcpHost(options: McpHostOptions): McpHost {
  const { settings } = options;
  // The open workspace's .mcp.json as last read: offered, started only once allowed for its content.
  let workspaceFile: { workspace: string; text: string } | undefined;
  const found = () =>
    workspaceFile === undefined
      ? undefined
      : readWorkspaceServers(
          workspaceFile.text,
          settings.get().mcp.servers.map((server) => server.id),
        );
  const offer = () => {
    const servers = found();
    return servers === undefined || workspaceFile === undefined
      ? null
      : offerOf(servers, workspaceFile.workspace, settings.get().mcp.workspaceDecisions);
  };
  const state = () => ({ servers: manager.statuses(), offered: offer() });
  const listeners = new Set<() => void>();
  const signIn = createMcpSignIn({
    secrets: options.secrets,
    onSignedIn: (id) => {
      options.logger.info(`mcp: ${id}: signed in`);
      void manager.restart(id);
    },
    onFailed: (id, why) => options.logger.warn(`mcp: ${id}: ${why}`),
  });
  const manager = new McpServerManager({
    authProvider: (config) => signIn.provider(config.id),
    startProcess: async (config, network) => {
      const folders = await options.folders();
      return startMcpServerProcess(
        config,
        {
          folders: () => folders,
          dataRoot: join(options.home, 'mcp-servers'),
          passEnvironment: () => settings.get().commands.passEnvironment,
        },
        network,
      );
    },
    workspaceRoot: options.workspaceRoot,
    version: options.version,
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    log: (message) => options.logger.info(`mcp: ${message}`),
    ...serverQuestions(options),
    ...(options.ask === undefined
      ? {}
      : {
          onHostQuestion: askServerHost({
            ask: options.ask,
            keep: (server, host) => keepHost(settings, server, host),
            log: (message) => options.logger.info(`mcp: ${message}`),
          }),
        }),
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
  const wanted = (): readonly McpServerConfig[] => {
    if (!options.start) return [];
    const own = settings.get().mcp.servers.map((server) => options.reveal(server));
    // A workspace's servers only with the user's yes for this workspace and this content of the file.
    const offered = offer()?.decision === 'allowed' ? (found()?.servers ?? []) : [];
    return [...own, ...offered];
  };
  // Compared with their values: a replaced token restarts its server though settings.json is unchanged.
  let synced = '';
  const sync = () => {
    const next = wanted();
    const key = JSON.stringify(next);
    if (key === synced) return;
    synced = key;
    manager.sync(next);
  };
  const unsubscribe = settings.subscribe(() => sync());
  const refreshOffer = async () => {
    const workspace = options.workspaceRoot();
    const text = options.start ? await options.readWorkspaceFile(WORKSPACE_MCP_FILE).catch(() => undefined) : undefined;
    const before = JSON.stringify(offer());
    workspaceFile = text === undefined ? undefined : { workspace, text };
    sync();
    // Said only when the offer changed (a workspace without the file says nothing).
    if (JSON.stringify(offer()) !== before) options.events.emit('mcpServers.changed', state());
  };
  // In the background: the first message does not wait for any server.
  sync();
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
      'mcpServers.list': async () => {
        await refreshOffer();
        return ok(state());
      },
      'mcpServers.decideOffer': async ({ hash, decision }) => {
        await refreshOffer();
        const current = offer();
        if (current === null || current.hash !== hash || workspaceFile === undefined) {
          return {
            ok: false,
            error: {
              code: 'invalid_payload',
              message: `${WORKSPACE_MCP_FILE} changed since it was shown; look again.`,
            },
          };
        }
        const workspaceDecisions = decided(settings.get().mcp.workspaceDecisions, {
          workspace: workspaceFile.workspace,
          hash,
          decision,
        });
        await settings.update({ mcp: { workspaceDecisions } });
        // The chat's notice and Settings both follow.
        options.events.emit('mcpServers.changed', state());
        return ok(state());
      },
      'mcpServers.catalog': async () => ok(await manager.catalog({ timeoutMs: CATALOG_TIMEOUT_MS })),
      'mcpServers.restart': async ({ id }) => {
        const restarted = await manager.restart(id);
        return restarted.ok ? ok(state()) : restarted;
      },
      'mcpServers.signIn': async ({ id }) => {
        const config = manager.config(id);
        if (config === undefined)
          return { ok: false, error: { code: 'not_found', message: `There is no MCP server ${id}.` } };
        const started = await signIn.start(config);
        if (started.ok && started.value.authorizationUrl === null) await manager.restart(id);
        return started;
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
        const saved = await settings.update({ mcp: { servers: [...kept, ...added] } });
        // As saved: environment and header values masked (they are in the secret store now).
        const shown = saved.mcp.servers.filter((server) => added.some((entry) => entry.id === server.id));
        return ok({ added: shown, skipped: imported.skipped });
      },
    },
    subscribe: (listener) => void listeners.add(listener),
    async workspaceChanged() {
      // The old folder's offered servers stop; the user's own start again in the new sandbox (an HTTP
      // one keeps its session and is told its roots changed); then the new folder's .mcp.json is read.
      workspaceFile = undefined;
      sync();
      await manager.workspaceChanged();
      await refreshOffer();
    },
    refreshOffer,
    async dispose() {
      unsubscribe();
      await Promise.all([manager.dispose(), signIn.dispose()]);
    },
  };
}

/**
 * "Always" for a server's host: added to its grants in settings (listed and revocable in Settings →
 * MCP servers). A server offered by the workspace's .mcp.json has no grants there: not kept.
 */
async function keepHost(settings: SettingsStore, server: string, host: string): Promise<boolean> {
  const servers = settings.get().mcp.servers;
  const own = servers.find((entry) => entry.id === server);
  if (own === undefined || own.transport !== 'stdio') return false;
  if (own.grants.hosts.includes(host)) return true;
  const next = servers.map((entry) =>
    entry === own ? { ...own, grants: { ...own.grants, hosts: [...own.grants.hosts, host] } } : entry,
  );
  await settings.update({ mcp: { servers: next } });
  return true;
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
