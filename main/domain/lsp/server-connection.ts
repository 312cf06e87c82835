import { messageOf } from '../../../shared/errors';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, InitializeParams, InitializeResult } from 'vscode-languageserver-protocol';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { spawnServerProcess } from '../../platform/processes/server-process';
import type { ServerProcess } from '../../platform/processes/server-process';
import type { ConfinementRules } from '../../platform/processes/launch-types';
import type { ServerCommand } from './server-catalog';

/** The last lines a server wrote to stderr: kept for the log and the error message, not more. */
const maxStderrLines = 40;

export interface ConnectionOptions {
  readonly serverId: string;
  readonly command: ServerCommand;
  /** Real absolute workspace root: the server's cwd and rootUri. */
  readonly workspaceRoot: string;
  readonly initializationOptions?: unknown;
  /** Names the user passes to child processes (settings), read at each start. */
  readonly passEnvironment: readonly string[];
  /** What the server may touch (process-rules.ts, 'language-server'); undefined: the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  readonly initializeTimeoutMs: number;
  readonly onDiagnostics: (uri: string, diagnostics: readonly Diagnostic[]) => void;
  /** The process ended (crash, kill or stop). */
  readonly onExit: (code: number | null, signal: string | null) => void;
}

export interface ServerConnection {
  readonly capabilities: InitializeResult['capabilities'];
  /** One request with its own deadline: a server that hangs answers `timeout`, and the request is cancelled. */
  request<R>(method: string, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<Result<R | null>>;
  notify(method: string, params: unknown): void;
  /** Polite shutdown (shutdown + exit), then the process group is killed whatever it answered. */
  stop(): Promise<void>;
  /** Kill without asking (tests: a crash; dispose when the server is stuck). */
  kill(): void;
  readonly pid: number | undefined;
  stderrTail(): readonly string[];
}

function clientCapabilities(): InitializeParams['capabilities'] {
  return {
    general: { positionEncodings: ['utf-16'] },
    workspace: {
      workspaceFolders: true,
      configuration: true,
      symbol: { dynamicRegistration: false },
      workspaceEdit: { documentChanges: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true },
      publishDiagnostics: { relatedInformation: false, versionSupport: true },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      definition: { linkSupport: false },
      references: {},
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      rename: { prepareSupport: true },
    },
  };
}

/**
 * Starts one server and speaks JSON-RPC to it over its stdio (vscode-jsonrpc does the framing).
 * Server-to-client requests get harmless answers: Familiar never lets a server edit files by
 * itself (workspace/applyEdit is refused; code_rename applies edits through the sandbox).
 */
export async function startServerConnection(options: ConnectionOptions): Promise<Result<ServerConnection>> {
  let server: ServerProcess;
  try {
    server = spawnServerProcess({
      file: options.command.file,
      args: options.command.args,
      cwd: options.workspaceRoot,
      environment: { pass: options.passEnvironment, ...(options.command.set ? { set: options.command.set } : {}) },
      ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
    });
  } catch (error) {
    return err('language_server_unavailable', `Could not start ${options.serverId}: ${String(error)}`);
  }
  const { child } = server;
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
    stderr.splice(0, Math.max(0, stderr.length - maxStderrLines));
  });

  const connection: MessageConnection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  let exited = false;
  const spawnFailed = new Promise<string>((resolve) => {
    // `on`, not `once`: a second 'error' (a failed kill) with no listener would end the app.
    child.on('error', (error: NodeJS.ErrnoException) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(`exited (${code ?? signal ?? 'unknown'})`));
  });
  child.once('exit', (code, signal) => {
    exited = true;
    connection.dispose();
    options.onExit(code, signal);
  });
  // Errors on a dead stream are reported by the exit above.
  connection.onError(() => undefined);
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; diagnostics: Diagnostic[] }) =>
    options.onDiagnostics(params.uri, params.diagnostics),
  );
  connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) =>
    (params.items ?? []).map(() => null),
  );
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('workspace/workspaceFolders', () => [
    { uri: pathToFileURL(options.workspaceRoot).href, name: 'workspace' },
  ]);
  connection.onRequest('workspace/applyEdit', () => ({
    applied: false,
    failureReason: 'Familiar applies edits only through its own tools.',
  }));
  connection.listen();

  const request = async <R>(
    method: string,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Result<R | null>> => {
    if (exited) return err('language_server_failed', `The ${options.serverId} language server is not running.`);
    const source = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = new Promise<Result<never>>((resolve) => {
      timer = setTimeout(() => {
        source.cancel();
        resolve(
          err('timeout', `The ${options.serverId} language server gave no answer to ${method} within ${timeoutMs} ms.`),
        );
      }, timeoutMs);
    });
    const ended = spawnFailed.then((why) =>
      err<never>('language_server_failed', `The ${options.serverId} language server ${why} during ${method}.`),
    );
    try {
      // sendRequest throws at once ("Connection is closed.") when the server died before its exit
      // was seen: through the promise constructor that is a rejection, answered like any failure.
      const answer = new Promise<R | null>((resolve) =>
        resolve(connection.sendRequest<R | null>(method, params, source.token)),
      ).then(
        (value) => ok(value),
        (error: unknown) =>
          signal?.aborted === true
            ? err<never>('aborted', `${method} was stopped.`)
            : err<never>(
                'language_server_failed',
                `The ${options.serverId} language server failed on ${method}: ${messageOf(error)}`,
              ),
      );
      return await Promise.race([answer, deadline, ended]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  };

  const rootUri = pathToFileURL(options.workspaceRoot).href;
  const initParams: InitializeParams = {
    // A confined server lives in its own pid namespace: our pid is not there, and a server that
    // watches it (vscode-languageserver does) would take us for dead and exit. bwrap's
    // --die-with-parent ends it with us instead.
    processId: server.confined ? null : process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
    capabilities: clientCapabilities(),
    initializationOptions: options.initializationOptions,
  };
  const kill = () => server.stop(0);
  const initialized = await Promise.race([
    request<InitializeResult>('initialize', initParams, options.initializeTimeoutMs),
    spawnFailed.then((why) =>
      err<never>('language_server_unavailable', `The ${options.serverId} language server could not start: ${why}.`, {
        stderr: stderr.slice(-5),
      }),
    ),
  ]);
  if (!initialized.ok || initialized.value === null) {
    kill();
    return initialized.ok
      ? err('language_server_failed', `${options.serverId} answered initialize with nothing.`)
      : initialized;
  }
  void connection.sendNotification('initialized', {}).catch(() => undefined);

  return ok({
    capabilities: initialized.value.capabilities,
    pid: child.pid,
    request,
    notify: (method, params) => {
      if (!exited) void connection.sendNotification(method, params).catch(() => undefined);
    },
    async stop() {
      if (exited) return;
      await request('shutdown', null, 1000);
      if (!exited) void connection.sendNotification('exit').catch(() => undefined);
      server.stop(500);
    },
    kill,
    stderrTail: () => [...stderr],
  });
}
