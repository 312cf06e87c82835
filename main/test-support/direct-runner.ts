import type { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { parseArguments } from '../tool-calls/admit';
import { guarded } from '../tool-calls/run';
import type { Approval, ChangePreview, Tool, ToolContext } from '../tools/define-tool';
import { defaultToolLimits } from '../tools/tool-limits';

/**
 * For tests of one tool (not shipped): the pipeline's own argument parse and its run guard
 * (timeout, abort, a throw as internal_error), without policy, approval or audit. Tests of those
 * drive the whole pipeline (tool-calls-kit.ts).
 */
export interface DirectRunner {
  run<I extends z.ZodType, O>(
    tool: Tool<I, O>,
    rawArgs: unknown,
    ctx: ToolContext,
    approval?: Approval,
  ): Promise<Result<O>>;
  /** The approval preview the pipeline's ask stage would show. */
  prepare<I extends z.ZodType, O>(tool: Tool<I, O>, rawArgs: unknown, ctx: ToolContext): Promise<Result<ChangePreview>>;
}

export function createDirectRunner(limits: { readonly timeoutMs?: number } = {}): DirectRunner {
  const timeoutMs = limits.timeoutMs ?? defaultToolLimits.timeoutMs;
  return {
    async run(tool, rawArgs, ctx, approval) {
      const args = parseArguments(tool, rawArgs);
      if (!args.ok) return args;
      return guarded(tool.name, ctx, (runCtx) => tool.run(args.value, runCtx, approval), {
        timeoutMs: tool.timeoutMs?.(args.value) ?? timeoutMs,
      });
    },
    async prepare(tool, rawArgs, ctx) {
      const args = parseArguments(tool, rawArgs);
      if (!args.ok) return args;
      const prepare = tool.prepare?.bind(tool);
      if (prepare === undefined) return ok({ summary: tool.name });
      return guarded(tool.name, ctx, (previewCtx) => prepare(args.value, previewCtx), { timeoutMs });
    },
  };
}
