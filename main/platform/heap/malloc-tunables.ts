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
 * (before 22.15; Electron's main process is not relaunched), or where MALLOC_ARENA_MAX is set
 * already: by the person who started it (their choice stands) or by this relaunch.
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
  readonly glibc: string | undefined;
  readonly canExec: boolean;
}

/** The environment to start again with, or undefined when the process stays as it is. */
export function relaunchEnvironment(facts: RelaunchFacts): NodeJS.ProcessEnv | undefined {
  if (!facts.canExec || facts.glibc === undefined || facts.env['MALLOC_ARENA_MAX'] !== undefined) return undefined;
  return { ...facts.env, ...mallocTunables };
}

/** Replaces this process with itself under the tunables (once; see above). Call before loading the app. */
export function relaunchUnderMallocTunables(): void {
  const execve = (process as { execve?: Execve }).execve;
  if (process.platform !== 'linux' || typeof execve !== 'function') return;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  const env = relaunchEnvironment({ env: process.env, glibc: report.header?.glibcVersionRuntime, canExec: true });
  if (env === undefined) return;
  try {
    execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
  } catch {
    // Not allowed here (a seccomp filter, a missing binary): the process goes on with glibc's defaults.
  }
}
