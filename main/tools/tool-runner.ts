import type { z } from 'zod';
import type { FamiliarError } from '../../shared/errors';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { AuditLog } from '../audit/audit-log';
import type { Logger } from '../core/logger';
import type { AnyTool, Approval, ChangePreview, Tool, ToolContext } from './define-tool';
import { createRateLimiter } from './rate-limiter';
import { defaultToolLimits } from './tool-limits';

export interface ToolRunnerOptions {
  readonly audit: AuditLog;
  readonly limits?: { readonly callsPerMinute?: number; readonly timeoutMs?: number };
  readonly logger?: Logger;
  readonly now?: () => number;
}

/** A call the registry refused itself (policy deny, user rejection...), for the same audit log. */
export interface RefusedCall {
  readonly conversationId: string;
  readonly tool: string;
  readonly paths: readonly string[];
  readonly error: FamiliarError;
  readonly durationMs?: number;
}

/**
 * Runs tool calls the same way for the LLM loop's registry and for MCP mode: arguments parsed with
 * the tool's schema, a per-conversation rate limit, a timeout that aborts the tool's signal, a
 * throwing tool turned into internal_error, and one audit line per call. Policy and approval come
 * before (the registry's job); this is the last step.
 */
export interface ToolRunner {
  /** Validates the model's arguments; the message says precisely what is wrong. */
  parseArgs<I extends z.ZodType, O>(tool: Tool<I, O>, rawArgs: unknown): Result<z.output<I>>;
  /** The approval preview: parsed args, the same timeout, no rate limit, no audit line. */
  prepare<I extends z.ZodType, O>(tool: Tool<I, O>, rawArgs: unknown, ctx: ToolContext): Promise<Result<ChangePreview>>;
  run<I extends z.ZodType, O>(
    tool: Tool<I, O>,
    rawArgs: unknown,
    ctx: ToolContext,
    approval?: Approval,
  ): Promise<Result<O>>;
  recordRefusal(call: RefusedCall): Promise<void>;
}

function describeIssues(tool: AnyTool, error: z.ZodError, rawArgs: unknown): string {
  const issues = error.issues.map(
    (issue) => `${issue.path.length === 0 ? '(arguments)' : issue.path.join('.')}: ${issue.message}`,
  );
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  const unknown =
    shape !== undefined && typeof rawArgs === 'object' && rawArgs !== null
      ? Object.keys(rawArgs).filter((key) => !(key in shape))
      : [];
  const expected = shape === undefined ? '' : ` Parameters: ${Object.keys(shape).join(', ')}.`;
  return `Invalid arguments for ${tool.name}: ${issues.join('; ')}.${unknown.length > 0 ? ` Unknown: ${unknown.join(', ')}.` : ''}${expected}`;
}

/** Bytes a result reports, by the tools' naming convention (bytes_written / bytes_read). */
function bytesOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const bytes = record['bytes_written'] ?? record['bytes_read'];
  return typeof bytes === 'number' ? bytes : undefined;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function createToolRunner(options: ToolRunnerOptions): ToolRunner {
  const now = options.now ?? Date.now;
  const timeoutMs = options.limits?.timeoutMs ?? defaultToolLimits.timeoutMs;
  const limiter = createRateLimiter(options.limits?.callsPerMinute ?? defaultToolLimits.callsPerMinute, now);

  const parseArgs = <I extends z.ZodType, O>(tool: Tool<I, O>, rawArgs: unknown): Result<z.output<I>> => {
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (parsed.success) return ok(parsed.data);
    return err('invalid_arguments', describeIssues(tool as AnyTool, parsed.error, rawArgs));
  };

  /** Runs `work` under the call's signal plus the timeout; throws become internal_error. */
  async function guarded<T>(
    name: string,
    ctx: ToolContext,
    work: (ctx: ToolContext) => Promise<Result<T>>,
    limitMs = timeoutMs,
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
            `${name} did not finish within ${seconds(limitMs)} and was stopped. Try a smaller request (a narrower path, a line range, a simpler pattern).`,
          ),
        );
      }, limitMs);
      controller.signal.addEventListener('abort', () => {
        if (ctx.signal.aborted) resolve(err('aborted', 'The user stopped the turn; the call was cancelled.'));
      });
    });
    const running = work({ ...ctx, signal: controller.signal }).catch((error: unknown) => {
      options.logger?.error(`tool ${name} threw`, error);
      return err<T>(
        'internal_error',
        `${name} failed unexpectedly (${error instanceof Error ? error.message : String(error)}). This is a fault in Familiar, not in your call; try another way.`,
      );
    });
    try {
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', forward);
    }
  }

  const pathsOf = (tool: AnyTool, args: unknown): string[] => {
    try {
      return tool.access(args).map((access) => access.path);
    } catch {
      return [];
    }
  };

  return {
    parseArgs,

    async prepare(tool, rawArgs, ctx) {
      const args = parseArgs(tool, rawArgs);
      if (!args.ok) return args;
      const prepare = tool.prepare?.bind(tool);
      if (prepare === undefined)
        return ok({ summary: `${tool.name} ${pathsOf(tool as AnyTool, args.value).join(' → ')}` });
      return guarded(tool.name, ctx, (guardedCtx) => prepare(args.value, guardedCtx));
    },

    async run(tool, rawArgs, ctx, approval) {
      const started = now();
      const args = parseArgs(tool, rawArgs);
      const paths = args.ok ? pathsOf(tool, args.value) : [];
      let result: Result<unknown>;
      const wait = args.ok ? limiter.admit(ctx.conversationId) : 0;
      if (!args.ok) result = args;
      else if (wait > 0) {
        result = err(
          'rate_limited',
          `Too many tool calls in this conversation (limit ${options.limits?.callsPerMinute ?? defaultToolLimits.callsPerMinute} per minute). Wait ${seconds(wait)} before the next call.`,
          { retry_after_ms: wait },
        );
      } else {
        result = await guarded<unknown>(
          tool.name,
          ctx,
          (guardedCtx) => tool.run(args.value, guardedCtx, approval),
          tool.timeoutMs?.(args.value) ?? timeoutMs,
        );
      }
      const bytes = result.ok ? bytesOf(result.value) : undefined;
      await options.audit.record({
        time: new Date(started).toISOString(),
        conversation: ctx.conversationId,
        tool: tool.name,
        paths,
        outcome: result.ok ? 'ok' : result.error.code,
        ...(bytes === undefined ? {} : { bytes }),
        duration_ms: Math.max(0, now() - started),
      });
      // The value came from tool.run, so it is the tool's Output.
      return result as Result<never>;
    },

    recordRefusal(call) {
      return options.audit.record({
        time: new Date(now()).toISOString(),
        conversation: call.conversationId,
        tool: call.tool,
        paths: [...call.paths],
        outcome: call.error.code,
        duration_ms: call.durationMs ?? 0,
      });
    },
  };
}
