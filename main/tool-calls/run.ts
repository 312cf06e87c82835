import { err } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { Logger } from '../platform/logging/logger';
import type { z } from 'zod';
import type { Approval, Tool, ToolContext } from '../tools/define-tool';
import type { Approved } from './call-session';
import { internalError, seconds } from './call-errors';
import { capToolResult } from './cap-result';

export interface RunLimits {
  /** Every call (and every approval preview) ends by then with `timeout`; its signal is aborted. */
  readonly timeoutMs: number;
  /** run() cuts a longer result (cap-result.ts). */
  readonly maxResultChars?: number;
  readonly logger?: Logger;
}

/**
 * Runs `work` under the call's signal plus a timeout. A stop from the user answers `aborted`, the
 * timeout `timeout` (and aborts the work's signal, so a child process is killed), a throw
 * `internal_error`. Used for the tool's run() and for its prepare() preview alike.
 */
export async function guarded<T>(
  name: string,
  ctx: ToolContext,
  work: (ctx: ToolContext) => Promise<Result<T>>,
  limits: RunLimits,
): Promise<Result<T>> {
  if (ctx.signal.aborted) return err('aborted', 'The turn was stopped before this call ran.');
  const controller = new AbortController();
  const forward = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<Result<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve(
        err(
          'timeout',
          `${name} did not finish within ${seconds(limits.timeoutMs)} and was stopped. Try a smaller request (a narrower path, a line range, a simpler pattern).`,
        ),
      );
    }, limits.timeoutMs);
    controller.signal.addEventListener('abort', () => {
      if (ctx.signal.aborted) resolve(err('aborted', 'The user stopped the turn; the call was cancelled.'));
    });
  });
  const running = work({ ...ctx, signal: controller.signal }).catch((error: unknown) => {
    limits.logger?.error(`tool ${name} threw`, error);
    return internalError<T>(name, error);
  });
  try {
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', forward);
  }
}

/**
 * The tool's run() under its timeout (its own when it has one, as run_command does) and the
 * user's stop. The run stage below and the tests of a single tool (test-support/direct-runner.ts)
 * both call this.
 */
export function runTool<T>(
  tool: Tool<z.ZodType, T>,
  args: unknown,
  ctx: ToolContext,
  approval: Approval | undefined,
  limits: RunLimits,
): Promise<Result<T>> {
  const timeoutMs = tool.timeoutMs?.(args) ?? limits.timeoutMs;
  // Index work in the background pauses while a call runs (issue 32 item 1). Not for commands:
  // one may run for hours (a dev server), and the index would never be built meanwhile.
  const release = tool.operations.includes('run') ? undefined : ctx.env.foreground?.enter();
  const running = guarded(tool.name, ctx, (runCtx) => tool.run(args, runCtx, approval), { ...limits, timeoutMs });
  return release === undefined ? running : running.finally(release);
}

/**
 * run: the tool itself, with the user's approval (their edited text, the before they were shown),
 * and the one cap on what a result may weigh in the transcript and the next request.
 */
export async function run(approved: Approved, limits: RunLimits): Promise<Result<unknown>> {
  const { tool, args, ctx, approval } = approved;
  const result = await runTool(tool, args, ctx, approval, limits);
  return capToolResult(result, limits.maxResultChars);
}
