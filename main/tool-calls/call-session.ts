import type { ToolAccess } from '../domain/policy/access';
import type { PersonaFileName } from '../domain/policy/persona-rules';
import type { AnyTool, Approval, ToolContext } from '../tools/define-tool';
import type { CallHooks, ToolCallRequest } from './tool-executor';

/**
 * What one tool call has learned so far. Each stage adds its part, so the record stage, which
 * runs whatever happened, sees exactly how far the call got:
 *   admit → locate → decide → ask → run → record.
 */
export interface CallStart {
  readonly request: ToolCallRequest;
  /** Aborted when the user stops the turn or the MCP client cancels the request. */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** What the front door added to this call: its own approver, a progress listener. */
  readonly hooks?: CallHooks;
}

/** admit: the tool exists for this conversation, its arguments parsed once, within the rate limit. */
export interface Admitted extends CallStart {
  readonly tool: AnyTool;
  readonly args: unknown;
}

/** locate: the tool environment for this call, and every path it touches under its real name too. */
export interface Located extends Admitted {
  readonly ctx: ToolContext;
  readonly accesses: readonly ToolAccess[];
  /** The distinct paths, as the audit and refusals name them. */
  readonly paths: readonly string[];
}

/** decide: the policy allowed the call; whether a person must still be asked, and what to warn about. */
export interface Decided extends Located {
  readonly needsApproval: boolean;
  /** Persona files the call changes: their history records the change after it ran. */
  readonly personaTargets: readonly PersonaFileName[];
  /** Shown in the approval dialog (content read this turn may be steering a persona change). */
  readonly warnings: readonly string[];
}

/** ask: the user approved (or nobody needed to be asked). */
export interface Approved extends Decided {
  readonly approval?: Approval;
  /** What the call does in one line, as the user saw it: the reason kept with a persona version. */
  readonly summary: string;
}

/** The one value that travels through the pipeline: the start plus whatever the stages added. */
export type CallSession = CallStart & Partial<Omit<Approved, keyof CallStart>>;
