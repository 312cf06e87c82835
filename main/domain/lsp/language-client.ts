import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ConfinementRules } from '../../platform/processes/launch-types';
import type { ServerCommand, ServerDefinition } from './server-catalog';
import { extensionOf } from './server-catalog';
import type { ServerConnection } from './server-connection';

export type ClientState = 'stopped' | 'starting' | 'running' | 'crashed';

export interface ClientTimings {
  readonly initializeMs: number;
  readonly requestMs: number;
  /**
   * The first requests of a fresh server wait for it to load the project (seconds for tsserver on a
   * busy machine); the short deadline applies once it has answered one.
   */
  readonly coldRequestMs: number;
  /** First restart waits this long after a crash, doubling per crash in a row up to maxBackoffMs. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

export interface LanguageClientOptions {
  readonly definition: ServerDefinition;
  readonly command: ServerCommand;
  readonly workspaceRoot: string;
  readonly initializationOptions?: unknown;
  readonly passEnvironment: () => readonly string[];
  /** What the server may touch (process-rules.ts, 'language-server'); undefined: the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  readonly timings: ClientTimings;
  readonly log?: (message: string) => void;
  /** Every publishDiagnostics (and an empty one when a file is closed): the UI's problem counts. */
  readonly onPublish?: (uri: string, items: readonly Diagnostic[]) => void;
  /** Running, crashed, stopped...: the settings panel follows it. */
  readonly onStateChange?: (state: ClientState) => void;
}

/** Consecutive timeouts after which a server is taken for stuck and ended. */
const maxTimeoutsInARow = 2;

interface OpenDocument {
  readonly relPath: string;
  version: number;
  text: string;
}

interface DiagnosticsWaiter {
  readonly uri: string;
  readonly after: number;
  readonly resolve: () => void;
}

/**
 * One language server for one workspace: started on first use, restarted after a crash (after a
 * backoff, so a server that dies at once does not spin), with the documents Familiar has shown it
 * and the diagnostics it published. Document text always comes from the caller (read through the
 * sandbox); the client never reads the disk.
 */
export class LanguageClient {
  private currentState: ClientState = 'stopped';
  lastUsed = Date.now();
  private connection: ServerConnection | undefined;
  private starting: Promise<Result<ServerConnection>> | undefined;
  private readonly documents = new Map<string, OpenDocument>();
  private readonly diagnostics = new Map<string, { generation: number; items: readonly Diagnostic[] }>();
  private waiters: DiagnosticsWaiter[] = [];
  private generation = 0;
  private crashesInARow = 0;
  private retryAt = 0;
  private disposed = false;
  private warm = false;
  private timeoutsInARow = 0;
  /** Counts starts: an exit reported by an earlier process (a restart's old one) is not this one's. */
  private attempts = 0;
  /** The stderr tail of the last process that ended: what the settings panel shows after a crash. */
  private lastLog: readonly string[] = [];
  restarts = 0;

  constructor(private readonly options: LanguageClientOptions) {}

  get state(): ClientState {
    return this.currentState;
  }

  set state(next: ClientState) {
    if (next === this.currentState) return;
    this.currentState = next;
    this.options.onStateChange?.(next);
  }

  get serverId(): string {
    return this.options.definition.id;
  }

  get pid(): number | undefined {
    return this.connection?.pid;
  }

  /** The running server, started (or restarted) if needed. */
  async connect(): Promise<Result<ServerConnection>> {
    this.lastUsed = Date.now();
    if (this.disposed) return err('language_server_failed', `${this.serverId} was shut down with its workspace.`);
    if (this.connection !== undefined) return ok(this.connection);
    if (this.starting !== undefined) return this.starting;
    const wait = this.retryAt - Date.now();
    this.state = 'starting';
    const attempt = (this.attempts += 1);
    this.starting = (async () => {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // vscode-jsonrpc loads with the first language server, not with every start of the app.
      const { startServerConnection } = await import('./server-connection');
      return startServerConnection({
        serverId: this.serverId,
        command: this.options.command,
        workspaceRoot: this.options.workspaceRoot,
        initializationOptions: this.options.initializationOptions,
        passEnvironment: this.options.passEnvironment(),
        ...(this.options.confinement === undefined ? {} : { confinement: this.options.confinement }),
        initializeTimeoutMs: this.options.timings.initializeMs,
        onDiagnostics: (uri, items) => this.publish(uri, items),
        // An exit during initialize is answered by startServerConnection itself (an error).
        onExit: (code, signal) => {
          if (attempt === this.attempts) this.exited(code, signal);
        },
      });
    })();
    const started = await this.starting;
    this.starting = undefined;
    if (!started.ok) {
      this.state = 'crashed';
      this.scheduleRetry();
      return started;
    }
    if (this.disposed) {
      await started.value.stop();
      return err('language_server_failed', `${this.serverId} was shut down with its workspace.`);
    }
    this.connection = started.value;
    this.state = 'running';
    this.warm = false;
    // A restarted server knows no documents: they are opened again on next use, with fresh text.
    this.documents.clear();
    return started;
  }

  private exited(code: number | null, signal: string | null): void {
    const wasRunning = this.connection !== undefined;
    this.lastLog = this.connection?.stderrTail() ?? this.lastLog;
    this.connection = undefined;
    this.documents.clear();
    if (this.disposed || !wasRunning) return;
    this.state = 'crashed';
    this.options.log?.(`${this.serverId} exited (${code ?? signal}); it restarts on next use`);
    this.scheduleRetry();
    // Anyone waiting for diagnostics learns now rather than at their timeout.
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private scheduleRetry(): void {
    const { backoffMs, maxBackoffMs } = this.options.timings;
    this.retryAt = Date.now() + Math.min(maxBackoffMs, backoffMs * 2 ** this.crashesInARow);
    this.crashesInARow += 1;
    this.restarts += 1;
  }

  private publish(uri: string, items: readonly Diagnostic[]): void {
    // A server that answers again has recovered: the next crash starts the backoff from the bottom.
    this.crashesInARow = 0;
    this.generation += 1;
    this.diagnostics.set(uri, { generation: this.generation, items });
    const ready = this.waiters.filter((waiter) => waiter.uri === uri && this.generation > waiter.after);
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve();
    if (!this.disposed) this.options.onPublish?.(uri, items);
  }

  uriOf(relPath: string): string {
    return pathToFileURL(`${this.options.workspaceRoot}/${relPath}`).href;
  }

  /** What the server last published for a file (undefined: nothing yet). */
  diagnosticsOf(uri: string): readonly Diagnostic[] | undefined {
    return this.diagnostics.get(uri)?.items;
  }

  allDiagnostics(): ReadonlyMap<string, readonly Diagnostic[]> {
    return new Map([...this.diagnostics].map(([uri, entry]) => [uri, entry.items]));
  }

  /** Workspace-relative paths of the documents the server holds. */
  openPaths(): string[] {
    return [...this.documents.values()].map((document) => document.relPath);
  }

  isOpen(relPath: string): boolean {
    return this.documents.has(this.uriOf(relPath));
  }

  /**
   * Shows the server a file's current text: didOpen the first time, a full-text didChange when the
   * text differs from what it has. Answers the diagnostics generation before the sync, so a caller
   * can wait for what the server publishes after it.
   */
  async sync(relPath: string, text: string): Promise<Result<{ uri: string; changed: boolean; mark: number }>> {
    const connected = await this.connect();
    if (!connected.ok) return connected;
    const uri = this.uriOf(relPath);
    const mark = this.generation;
    const open = this.documents.get(uri);
    if (open === undefined) {
      this.documents.set(uri, { relPath, version: 1, text });
      this.diagnostics.delete(uri);
      connected.value.notify('textDocument/didOpen', {
        textDocument: {
          uri,
          languageId: this.options.definition.languageId(extensionOf(relPath)),
          version: 1,
          text,
        },
      });
      return ok({ uri, changed: true, mark });
    }
    if (open.text === text) return ok({ uri, changed: false, mark });
    open.version += 1;
    open.text = text;
    connected.value.notify('textDocument/didChange', {
      textDocument: { uri, version: open.version },
      contentChanges: [{ text }],
    });
    return ok({ uri, changed: true, mark });
  }

  /** A file Familiar saw disappear: the server forgets its text (and its diagnostics go with it). */
  close(relPath: string): void {
    const uri = this.uriOf(relPath);
    if (!this.documents.delete(uri)) return;
    this.connection?.notify('textDocument/didClose', { textDocument: { uri } });
    this.diagnostics.delete(uri);
    // A file gone from the server is gone from the problem counts too.
    if (!this.disposed) this.options.onPublish?.(uri, []);
  }

  /**
   * Waits until the server publishes diagnostics for `uri` after generation `mark`, then a short
   * quiet period (servers publish syntax first, semantics a moment later). Resolves on timeout too:
   * the caller reads whatever is there.
   */
  async waitForDiagnostics(uri: string, mark: number, timeoutMs: number, settleMs = 150): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const next = (after: number, ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(
          () => {
            this.waiters = this.waiters.filter((waiter) => waiter !== entry);
            resolve(false);
          },
          Math.max(0, ms),
        );
        const entry: DiagnosticsWaiter = {
          uri,
          after,
          resolve: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
        if ((this.diagnostics.get(uri)?.generation ?? 0) > after) entry.resolve();
        else this.waiters.push(entry);
      });
    if (!(await next(mark, timeoutMs))) return;
    // Further publishes within the quiet period replace the first (tsserver: syntax, then semantic).
    while (Date.now() < deadline) {
      const current = this.diagnostics.get(uri)?.generation ?? 0;
      if (!(await next(current, Math.min(settleMs, deadline - Date.now())))) return;
    }
  }

  async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<Result<R | null>> {
    const connected = await this.connect();
    if (!connected.ok) return connected;
    this.lastUsed = Date.now();
    const { requestMs, coldRequestMs } = this.options.timings;
    const answer = await connected.value.request<R>(method, params, this.warm ? requestMs : coldRequestMs, signal);
    if (answer.ok && connected.value === this.connection) this.warm = true;
    // A server that stopped answering (stuck in a loop) is ended: the next call starts a fresh one.
    this.timeoutsInARow = !answer.ok && answer.error.code === 'timeout' ? this.timeoutsInARow + 1 : 0;
    if (this.timeoutsInARow >= maxTimeoutsInARow) {
      this.timeoutsInARow = 0;
      this.options.log?.(`${this.serverId} gave no answer ${maxTimeoutsInARow} times in a row; restarting it`);
      connected.value.kill();
    }
    return answer;
  }

  /** For tests and the settings panel: end the process as a crash would. */
  killForTest(): void {
    this.connection?.kill();
  }

  stderrTail(): readonly string[] {
    return this.connection?.stderrTail() ?? this.lastLog;
  }

  /**
   * The settings panel's Restart: the running process is stopped politely, the crash backoff is
   * forgotten, and a fresh one starts now (documents are opened again on next use).
   */
  async restart(): Promise<Result<void>> {
    if (this.disposed) return err('language_server_failed', `${this.serverId} was shut down with its workspace.`);
    if (this.starting !== undefined) await this.starting;
    const previous = this.connection;
    this.lastLog = previous?.stderrTail() ?? this.lastLog;
    this.connection = undefined;
    this.documents.clear();
    this.crashesInARow = 0;
    this.retryAt = 0;
    this.state = 'stopped';
    await previous?.stop();
    const started = await this.connect();
    if (!started.ok) return started;
    this.restarts += 1;
    return ok(undefined);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.state = 'stopped';
    const pending = this.starting === undefined ? undefined : await this.starting;
    const connection = this.connection ?? (pending?.ok === true ? pending.value : undefined);
    this.connection = undefined;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
    await connection?.stop();
  }
}
