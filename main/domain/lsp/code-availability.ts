import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { definitionFor } from './server-catalog';
import type { ServerDefinition } from './server-catalog';

/**
 * Entries a check looks at before it answers "no": a huge folder of photos costs a bounded walk,
 * and code that deep under non-code is rare enough to leave to a later check (a file added).
 */
const maxEntries = 20_000;

/**
 * Whether the code tools are offered: some file of the open workspace is covered by a server whose
 * program is there. Decided without starting anything: the catalog's `resolve()` (a PATH look-up) and
 * one walk of the workspace (git-ignored entries, .git and node_modules skipped) that stops at the
 * first covered file. A "yes" is kept until the workspace, its files or the catalog change; a "no" is
 * asked again on each refresh.
 */
export interface CodeAvailability {
  /** The last answer (false before the first check): what the synchronous tool list uses. */
  current(): boolean;
  /**
   * Brings the answer up to date: walks unless the last answer was yes and nothing changed since.
   * `background` (the check at start and after another folder opens): the walk yields to tool calls
   * (options.idle), so the first search after a start does not share the cores with it; a refresh
   * someone waits for (a tool list) hurries one that yields.
   */
  refresh(options?: { readonly background?: boolean }): Promise<boolean>;
  /** Another folder opened or the catalog changed: the next refresh walks again. */
  invalidate(): void;
  /**
   * Entries appeared (the watcher): a file a server covers makes the tools available without a walk;
   * any other (a folder) makes the next refresh walk again.
   */
  filesAdded(relPaths: readonly string[]): void;
  /** Called with each new answer (the tools list in the UI follows). */
  subscribe(listener: (available: boolean) => void): () => void;
}

export interface CodeAvailabilityOptions {
  readonly servers: () => readonly ServerDefinition[];
  /** The open workspace's sandbox (every byte, and every name, through it). */
  readonly sandbox: () => Promise<WorkspaceSandbox>;
  /**
   * Background walks ask between slices: a promise while a tool call runs (foreground-gate.ts
   * idle), which settles early, or is not made, once `hurry` aborts.
   */
  readonly idle?: (hurry: AbortSignal) => Promise<void> | undefined;
}

/** Does a walk of the workspace meet a file one of these servers covers? */
async function workspaceHasCode(
  sandbox: WorkspaceSandbox,
  servers: readonly ServerDefinition[],
  pause: () => Promise<void> | undefined,
): Promise<boolean> {
  if (servers.length === 0) return false;
  const root = await sandbox.resolve('.', 'read');
  if (!root.ok || root.value.facts?.kind !== 'directory') return false;
  let found = false;
  let seen = 0;
  const walked = await sandbox.walk(root.value, {
    recursive: true,
    includeHidden: false,
    pause,
    visit: (entry) => {
      seen += 1;
      if (entry.kind === 'file' && definitionFor(servers, entry.relPath) !== undefined) {
        found = true;
        return 'stop';
      }
      return seen >= maxEntries ? 'stop' : 'continue';
    },
  });
  return walked.ok && found;
}

export function createCodeAvailability(options: CodeAvailabilityOptions): CodeAvailability {
  let available = false;
  /** Bumped by every change: a walk that started before one does not settle the answer. */
  let generation = 0;
  let checked = -1;
  let running: Promise<boolean> | undefined;
  /** Ends the yielding of the background walk under way (someone waits for its answer). */
  let hurry: AbortController | undefined;
  const listeners = new Set<(available: boolean) => void>();

  const settle = (next: boolean) => {
    if (next === available) return;
    available = next;
    for (const listener of listeners) listener(next);
  };
  const installed = () => options.servers().filter((server) => server.resolve() !== undefined);

  const refresh = ({ background = false } = {}): Promise<boolean> => {
    // Only a "yes" is kept: code can arrive unseen (copied in while nothing watched), and a "no" costs
    // one bounded walk per turn (maxEntries), small beside a model's answer.
    if (checked === generation && available) return Promise.resolve(available);
    if (running !== undefined) {
      if (!background) hurry?.abort();
      return running;
    }
    const startedAt = generation;
    const hurrying = (hurry = new AbortController());
    const pause = () => (background ? options.idle?.(hurrying.signal) : undefined);
    running = (async () => {
      try {
        const answer = await workspaceHasCode(await options.sandbox(), installed(), pause);
        if (startedAt === generation) {
          checked = startedAt;
          settle(answer);
        }
        return answer;
      } catch {
        // An unreadable workspace offers no code tools; the next change checks again.
        return false;
      } finally {
        running = undefined;
        hurry = undefined;
      }
    })();
    return running;
  };

  return {
    current: () => available,
    refresh,
    invalidate() {
      generation += 1;
    },
    filesAdded(relPaths) {
      if (available || relPaths.length === 0) return;
      const servers = installed();
      if (relPaths.some((relPath) => definitionFor(servers, relPath) !== undefined)) settle(true);
      // Anything else (a folder with code inside, as a project copied in): the next refresh walks again.
      else generation += 1;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
