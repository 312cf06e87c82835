import type { z } from 'zod';
import type { Result } from '../../shared/result';
import { parseArguments } from '../tool-calls/admit';
import { previewCall } from '../tool-calls/ask';
import { runTool } from '../tool-calls/run';
import type { Approval, ChangePreview, Tool, ToolContext } from '../tools/define-tool';
import { defaultToolLimits } from '../tools/kit/tool-limits';

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
  const runLimits = { timeoutMs: limits.timeoutMs ?? defaultToolLimits.timeoutMs };
  return {
    async run(tool, rawArgs, ctx, approval) {
      const args = parseArguments(tool, rawArgs);
      return args.ok ? runTool(tool, args.value, ctx, approval, runLimits) : args;
    },
    async prepare(tool, rawArgs, ctx) {
      const args = parseArguments(tool, rawArgs);
      return args.ok ? previewCall(tool, args.value, ctx, runLimits) : args;
    },
  };
}
