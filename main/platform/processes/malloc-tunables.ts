import { executable } from './program-lookup';

/**
 * glibc's allocator, tuned for a process that sits beside its client all day (issue 32 item 7).
 * Left to itself, glibc raises its mmap threshold to the largest block freed so far (up to 32 MB),
 * so the file buffers and index segments an index build allocates and frees come from heaps that
 * the build leaves fragmented, and it gives each thread that allocates its own arena (up to eight
 * per core). What a build freed then stays in the process: measured over MCP on an 85.8k-file npm
 * tree, 724 MB at the peak and 516 MB steady with both indexes built; with these two settings,
 * 552 MB and 306 MB (the JavaScript heap is the same either way).
 *
 * glibc reads them only as the process starts, from its environment; a client starts familiar-mcp
 * (and browser mode is started) with its own. So the entry replaces the process with itself under
 * them (`process.execve`: the same process id, standard streams and arguments) before the app's
 * modules load. Not where glibc is not the allocator (macOS, Windows, musl), where Node cannot
 * (before 22.15; Electron's main process is not relaunched), or where the allocator is set already
 * (MALLOC_ARENA_MAX, or glibc.malloc tunables in GLIBC_TUNABLES): by the person who started it (their
 * choice stands) or by this relaunch.
 */
export const mallocTunables: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  // Fixed, which also stops glibc from raising it: a block of 128 KB or more is mapped on its own
  // and returned to the system when freed.
  MALLOC_MMAP_THRESHOLD_: '131072',
};

type Execve = (file: string, args?: readonly string[], env?: NodeJS.ProcessEnv) => never;

export interface RelaunchFacts {
  readonly env: NodeJS.ProcessEnv;
  /** glibc's version when it is the C library (process.report's header), else undefined. */
  readonly glibc: () => string | undefined;
  readonly canExec: boolean;
}

/** The allocator is already set by whoever started the process, or the relaunch is turned off. */
const leftAlone = (env: NodeJS.ProcessEnv): boolean =>
  env['MALLOC_ARENA_MAX'] !== undefined ||
  env['FAMILIAR_MALLOC_TUNABLES'] === '0' ||
  (env['GLIBC_TUNABLES'] ?? '').includes('glibc.malloc.');

/** The environment to start again with, or undefined when the process stays as it is. */
export function relaunchEnvironment(facts: RelaunchFacts): NodeJS.ProcessEnv | undefined {
  // The environment first: the relaunched process (and one whose allocator is set) looks no further.
  if (!facts.canExec || leftAlone(facts.env) || facts.glibc() === undefined) return undefined;
  // A setting of the person's own (a MALLOC_MMAP_THRESHOLD_ of theirs) stands.
  return { ...mallocTunables, ...facts.env };
}

/** glibc's version from Node's report header, without the network part of the report (it can be slow). */
function glibcVersion(): string | undefined {
  (process.report as { excludeNetwork?: boolean }).excludeNetwork = true;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report.header?.glibcVersionRuntime;
}

/**
 * The relaunch's arguments: Node, the V8 flags that can only be given at a start (`startFlags`),
 * then the process's own flags, script and arguments.
 */
export const relaunchArguments = (
  execPath: string,
  startFlags: readonly string[],
  execArgv: readonly string[],
  argv: readonly string[],
): string[] => [execPath, ...startFlags, ...execArgv, ...argv.slice(1)];

/**
 * Replaces this process with itself under the tunables (once; see above), started with `startFlags`
 * too (V8's, read only at a start: heap-release.ts startHeapFlags). Call before loading the app.
 * Node aborts the process when execve fails rather than throwing, so the binary is checked first;
 * FAMILIAR_MALLOC_TUNABLES=0 turns the relaunch off (where exec is forbidden), and the flags with it.
 */
export function relaunchUnderMallocTunables(startFlags: readonly string[] = []): void {
  if (process.platform !== 'linux') return;
  const execve = (process as { execve?: Execve }).execve;
  const canExec = typeof execve === 'function' && executable(process.execPath);
  const env = relaunchEnvironment({ env: process.env, glibc: glibcVersion, canExec });
  if (env === undefined || execve === undefined) return;
  execve.call(
    process,
    process.execPath,
    relaunchArguments(process.execPath, startFlags, process.execArgv, process.argv),
    env,
  );
}
