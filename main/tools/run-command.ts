import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { confinementMode } from '../platform/processes/confinement';
import { runProcess } from '../platform/processes/process-runner';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { checkCommandDenyList, splitCommandLine } from './command/command-line';
import { noticeSchema } from './kit/output-shapes';
import { defineTool } from './define-tool';
import { tickProgress } from './kit/progress-ticker';
import type { ChangePreview, ToolContext } from './define-tool';

/** stdout and stderr are each kept to this much (first and last half), with a marker in between. */
export const COMMAND_OUTPUT_BYTES = 30 * 1024;
/** Beyond the command's own timeout: time to kill the tree and collect its output. */
const RUNNER_GRACE_MS = 5000;

const input = z.object({
  command: z
    .string()
    .trim()
    .min(1)
    .max(10_000)
    .describe('The command line, e.g. "npm test -- --run" or "git log --oneline -5". Quotes are respected.'),
  cwd: z.string().default('.').describe('Working directory relative to the workspace root (default ".").'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(300)
    .default(30)
    .describe('Seconds before the command and every process it started are killed (1-300, default 30).'),
  shell: z
    .boolean()
    .default(false)
    .describe(
      'Run through the system shell (sh -c, cmd.exe on Windows) for pipes, redirects, globs and variables. Default false: the command is split into arguments and run directly.',
    ),
});
type RunArgs = z.output<typeof input>;

/** The result type is the output schema's (runCommandOutput, below): one source, so the two cannot drift. */
export type RunCommandOutput = z.output<typeof runCommandOutput>;

interface Plan {
  readonly dir: ResolvedPath;
  readonly file: string;
  readonly args: readonly string[];
}

/** Everything that can refuse the call, done before the user is asked and again before it runs. */
async function plan(args: RunArgs, ctx: ToolContext): Promise<Result<Plan>> {
  const denied = checkCommandDenyList(args.command);
  if (!denied.ok) return denied;
  const dir = await ctx.env.sandbox.resolve(args.cwd, 'read');
  if (!dir.ok) return dir;
  if (dir.value.facts === undefined) return err('file_not_found', `The folder '${dir.value.display}' does not exist.`);
  if (dir.value.facts.kind !== 'directory') return err('not_a_directory', `'${dir.value.display}' is not a folder.`);
  if (args.shell) return ok({ dir: dir.value, file: args.command, args: [] });
  const argv = splitCommandLine(args.command);
  if (!argv.ok) return argv;
  const [file, ...rest] = argv.value as [string, ...string[]];
  return ok({ dir: dir.value, file, args: rest });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const runCommandOutput = z.object({
  command: z.string(),
  cwd: z.string(),
  exit_code: z.number().int().nullable(),
  signal: z.string().exactOptional(),
  stdout: z.string(),
  stderr: z.string(),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  timed_out: z.boolean(),
  duration_ms: z.number(),
  /** Ran inside the operating system's confinement (SECURITY.md: Confinement); false says it had all the user's rights. */
  confined: z.boolean(),
  /** The hosts the command reached for through Familiar's proxy, and whether it could (absent: none). */
  network: z
    .array(
      z.object({
        host: z.string(),
        port: z.number().int(),
        allowed: z.boolean(),
        reason: z.string().exactOptional(),
      }),
    )
    .exactOptional(),
  notice: noticeSchema,
});

export const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Run a command in the workspace (build, tests, linters, scripts). Returns exit_code, stdout and stderr (each capped at 30 KB keeping the start and the end, with a marker), timed_out and duration_ms. ' +
    'Without shell the line is split into arguments (quotes respected) and run directly: no pipes, redirects, globs or $VARS; set shell: true for those. ' +
    'On timeout or stop every process it started is killed. The user approves each command unless they allowed it. The command gets a minimal environment (PATH, HOME, locale, temp folders...) plus variables the user allowed in settings; API keys and tokens are not passed. ' +
    'No network except through HTTP_PROXY/HTTPS_PROXY (curl, npm, pip, git, cargo, go and Node follow them): each new host asks the user, and `network` in the result lists the hosts asked for and which were refused (HTTP 403 from the proxy).',
  input,
  output: runCommandOutput,
  openWorld: true,
  operations: ['run'],
  returnsContent: true,
  access: (args) => [{ operation: 'run', path: args.cwd }],
  timeoutMs: (args) => args.timeout * 1000 + RUNNER_GRACE_MS,

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const planned = await plan(args, ctx);
    if (!planned.ok) return planned;
    // The person approving hears whether the operating system will hold the command, and if not why.
    const mode = confinementMode();
    return ok({
      summary: `Run \`${args.command}\` in ${planned.value.dir.display}`,
      path: planned.value.dir.display,
      facts: {
        command: args.command,
        directory: planned.value.dir.display,
        shell: args.shell,
        timeout_seconds: args.timeout,
        confined: mode.confined,
        ...(mode.confined ? {} : { confinement_reason: mode.reason, confinement_fix: mode.fix }),
      },
    });
  },

  async run(args, ctx): Promise<Result<RunCommandOutput>> {
    const planned = await plan(args, ctx);
    if (!planned.ok) return planned;
    const { dir, file } = planned.value;
    // The child starts in the folder the sandbox checked, held open: a swap meanwhile cannot move it.
    const held = ctx.env.sandbox.holdFolder(dir);
    if (!held.ok) return held;
    // Seconds of the timeout used so far: a client shows the command is alive (MCP progress).
    // Rounded, not floored: the interval counts from the event loop's cached time, which may be a
    // few ms before `started`, so its first tick can come at 995 ms (and said 0 s).
    const started = Date.now();
    const elapsed = () => Math.round((Date.now() - started) / 1000);
    const stop = tickProgress(ctx, 1000, () => [elapsed(), args.timeout, `Running for ${elapsed()} s`]);
    const outcome = await runProcess({
      file,
      args: planned.value.args,
      shell: args.shell,
      cwd: held.value.cwd,
      timeoutMs: args.timeout * 1000,
      signal: ctx.signal,
      maxOutputBytes: COMMAND_OUTPUT_BYTES,
      environment: { pass: ctx.env.passEnvironment() },
      confinement: ctx.env.confinementFor('command'),
      ...(ctx.network === undefined ? {} : { network: { gate: ctx.network.gate(args.command) } }),
    }).finally(() => {
      stop();
      held.value.release();
    });
    if (!outcome.ok) return outcome;
    const result = outcome.value;
    if (result.aborted) return err('aborted', 'The user stopped the turn; the command and its processes were killed.');
    return ok({
      command: args.command,
      cwd: dir.display,
      exit_code: result.exitCode,
      ...(result.signal === null ? {} : { signal: result.signal }),
      stdout: result.stdout,
      stderr: result.stderr,
      stdout_truncated: result.stdoutTruncated,
      stderr_truncated: result.stderrTruncated,
      timed_out: result.timedOut,
      duration_ms: result.durationMs,
      confined: result.confined,
      ...(result.hosts.length === 0
        ? {}
        : {
            network: result.hosts.map(({ host, port, allowed, reason }) => ({
              host,
              port,
              allowed,
              ...(reason === undefined ? {} : { reason }),
            })),
          }),
      ...(result.timedOut
        ? {
            notice: `The command did not finish within ${args.timeout} s; it and every process it started were killed. Raise timeout (up to 300) if it needs longer.`,
          }
        : {}),
    });
  },
});
