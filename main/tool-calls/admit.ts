import type { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { FamiliarError } from '../../shared/errors';
import type { AnyTool, Tool } from '../tools/define-tool';
import type { Admitted, CallStart } from './call-session';
import { seconds } from './call-errors';
import type { RateLimiter } from './rate-limiter';

export interface AdmitRules {
  /** The tools registered for this conversation right now (memory tools only while memory is on, code tools while a server is available). */
  readonly registered: (conversationId: string) => readonly AnyTool[];
  /** Every tool Familiar has, to tell "switched off" from "no such tool". */
  readonly all: readonly AnyTool[];
  readonly limiter: RateLimiter;
  readonly callsPerMinute: number;
  /** Why a tool that came and went is not there now (an MCP server not ready): its typed refusal. */
  readonly missing?: (name: string) => FamiliarError | undefined;
}

const MAX_ISSUES_SHOWN = 5;

function describeIssues(tool: AnyTool, error: z.ZodError, rawArgs: unknown): string {
  const issues = error.issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((issue) => `${issue.path.length === 0 ? '(arguments)' : issue.path.join('.')}: ${issue.message}`);
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  const unknown =
    shape !== undefined && typeof rawArgs === 'object' && rawArgs !== null
      ? Object.keys(rawArgs).filter((key) => !(key in shape))
      : [];
  const expected = shape === undefined ? '' : ` Parameters: ${Object.keys(shape).join(', ')}.`;
  return `Invalid arguments for ${tool.name}: ${issues.join('; ')}.${unknown.length > 0 ? ` Unknown: ${unknown.join(', ')}.` : ''}${expected}`;
}

/** The arguments exactly as the model sent them, checked against the tool's schema: the only parse. */
export function parseArguments<I extends z.ZodType, O>(tool: Tool<I, O>, rawArgs: unknown): Result<z.output<I>> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (parsed.success) return ok(parsed.data);
  return err('invalid_arguments', describeIssues(tool as AnyTool, parsed.error, rawArgs));
}

/** admit: is there such a tool for this conversation, are the arguments valid, is the call within the rate limit. */
export function admit(start: CallStart, rules: AdmitRules): Result<Admitted> {
  const { request } = start;
  const tool = rules.registered(request.conversationId).find((candidate) => candidate.name === request.name);
  if (tool === undefined) {
    const gone = rules.missing?.(request.name);
    if (gone !== undefined) return { ok: false, error: gone };
    const exists = rules.all.find((candidate) => candidate.name === request.name);
    if (exists?.needsSearchService === true) {
      return err(
        'search_not_configured',
        `The tool ${request.name} is offered only while a search service (SearXNG, Brave Search or Tavily) is configured in Settings → Web, and none is.`,
      );
    }
    return err(
      'unknown_tool',
      exists === undefined
        ? `There is no tool named ${request.name}. Use one of the tools you were given.`
        : exists.needsLanguageServer === true
          ? `The tool ${request.name} needs a language server, and none is available for this workspace's files. Use search_in_code instead.`
          : exists.needsSkills === true
            ? `The tool ${request.name} is offered only while an Agent Skill is enabled, and none is.`
            : `The tool ${request.name} is not available while memory is switched off.`,
    );
  }
  const args = parseArguments(tool, request.args);
  if (!args.ok) return args;
  const wait = rules.limiter.admit(request.conversationId);
  if (wait > 0) {
    return err(
      'rate_limited',
      `Too many tool calls in this conversation (limit ${rules.callsPerMinute} per minute). Wait ${seconds(wait)} before the next call.`,
      { retry_after_ms: wait },
    );
  }
  return ok({ ...start, tool, args: args.value });
}
