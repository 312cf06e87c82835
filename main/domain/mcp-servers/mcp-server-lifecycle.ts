import { needsSignIn, openConnection, StartFailed } from './mcp-connection';
import type { ElicitHandler, SampleHandler } from './mcp-connection';
import type { McpServerManagerOptions, ServerAsker } from './mcp-server-manager-options';
import type { ServerNetwork } from './mcp-server-network';
import { countCrash, restartPolicy } from './mcp-server-restart-policy';
import type { RestartPolicy } from './mcp-server-restart-policy';
import type { RunningServer } from './mcp-server-status';
import { toolEntries } from './mcp-tool-list';

/**
 * One server's session from start to stop, for the manager (mcp-server-manager.ts): it is opened
 * with the server's network and questions wired to the options, its tools are read, and a session
 * that ends on its own is started again after the restart policy's wait (mcp-server-restart-policy.ts).
 */
export class McpServerLifecycle {
  private readonly policy: RestartPolicy;

  constructor(
    private readonly options: McpServerManagerOptions,
    /** The manager was disposed: nothing starts again. */
    private readonly disposed: () => boolean,
  ) {
    this.policy = restartPolicy(options);
  }

  async stop(running: RunningServer): Promise<void> {
    running.generation += 1;
    clearTimeout(running.timer);
    const connection = running.connection;
    running.connection = undefined;
    running.entries = [];
    if (!running.config.enabled) running.state = 'disabled';
    await connection?.close();
  }

  async start(running: RunningServer): Promise<void> {
    if (this.disposed()) return;
    const generation = ++running.generation;
    const { config } = running;
    running.state = running.crashes > 0 ? 'restarting' : 'starting';
    running.error = undefined;
    this.changed();
    const current = () => running.generation === generation && !this.disposed();
    try {
      const connection = await openConnection({
        config,
        startProcess: () =>
          config.transport === 'stdio'
            ? this.options.startProcess(config, this.network(running))
            : Promise.reject(new Error('not a stdio server')),
        workspaceRoot: this.options.workspaceRoot,
        startTimeoutMs: this.options.startTimeoutMs ?? 30_000,
        version: this.options.version,
        ...(this.options.log === undefined ? {} : { log: this.options.log }),
        ...(config.transport === 'http' && this.options.authProvider !== undefined
          ? { authProvider: this.options.authProvider(config) }
          : {}),
        ...(this.options.logLevel === undefined ? {} : { logLevel: this.options.logLevel }),
        ...this.askers(running),
        onLost: (why, stderr) => {
          if (current()) this.lost(running, why, stderr);
        },
        onToolsChanged: () => {
          if (!current()) return;
          this.readTools(running);
          this.options.log?.(`${config.id}: tools changed (${running.entries.length} tools)`);
          this.changed();
        },
      });
      if (!current()) {
        await connection.close();
        return;
      }
      running.connection = connection;
      running.state = 'ready';
      running.readySince = Date.now();
      this.readTools(running);
      this.options.log?.(`${config.id}: ready with ${running.entries.length} tools`);
    } catch (error) {
      if (!current()) return;
      if (needsSignIn(error)) {
        // Not a crash: no restart until the user signs in (Sign in restarts it).
        running.state = 'needs-sign-in';
        this.options.log?.(`${config.id}: needs sign-in`);
        this.changed();
        return;
      }
      const stderr = error instanceof StartFailed ? error.stderr : [];
      this.lost(running, error instanceof Error ? error.message : String(error), stderr);
      return;
    }
    this.changed();
  }

  private changed(): void {
    this.options.onChange?.();
  }

  /** A stdio server's network: its grants as they are now, its refusals shown, its questions asked. */
  private network(running: RunningServer): ServerNetwork {
    const { onHostQuestion } = this.options;
    return {
      hosts: () => (running.config.transport === 'stdio' ? running.config.grants.hosts : []),
      onRefused: (host) => {
        running.refusedHosts.add(host);
        this.changed();
      },
      ...(onHostQuestion === undefined
        ? {}
        : {
            ask: (target, signal) => {
              const asker = this.asker(running);
              const ended = asker.call === undefined ? undefined : running.ended.get(asker.call)?.signal;
              return onHostQuestion(asker, target, ended === undefined ? signal : AbortSignal.any([signal, ended]));
            },
          }),
    };
  }

  private asker(running: RunningServer): ServerAsker {
    const call = running.inflight.at(-1);
    return { server: running.config.id, ...(call === undefined ? {} : { call }) };
  }

  private askers(running: RunningServer): { onElicit?: ElicitHandler; onSample?: SampleHandler } {
    const { onElicit, onSample } = this.options;
    const asker = () => this.asker(running);
    return {
      ...(onElicit === undefined ? {} : { onElicit: (params, signal) => onElicit(asker(), params, signal) }),
      ...(onSample === undefined ? {} : { onSample: (params, signal) => onSample(asker(), params, signal) }),
    };
  }

  private readTools(running: RunningServer): void {
    const { entries, skipped } = toolEntries(running.config.id, running.connection?.tools() ?? []);
    running.entries = entries;
    running.skipped = skipped;
  }

  /** The session ended on its own (or never began): restart after the next wait, or give up. */
  private lost(running: RunningServer, why: string, stderr: readonly string[]): void {
    // The exit, the closed stream and the failed handshake each say so: one loss counts once.
    running.generation += 1;
    running.stderr = [...stderr];
    const connection = running.connection;
    running.connection = undefined;
    running.entries = [];
    void connection?.close();
    running.error = why;
    const wait = countCrash(running, this.policy);
    if (wait === undefined || this.disposed()) {
      running.state = 'failed';
      this.options.log?.(`${running.config.id}: failed: ${why}`);
    } else {
      running.state = 'restarting';
      this.options.log?.(`${running.config.id}: ${why}; restarting in ${wait} ms`);
      const generation = running.generation;
      running.timer = setTimeout(() => {
        if (running.generation === generation) void this.start(running);
      }, wait);
      running.timer.unref();
    }
    this.changed();
  }
}
