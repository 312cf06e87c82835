import type { z } from 'zod';
import type { Result } from '../../shared/result';
import type { ApprovalInput, ApprovalOutcome } from '../domain/approvals/broker';
import type { ProgressReporter } from '../tools/define-tool';

/** A tool as the model sees it in one request. */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType;
  /** The schema the model is given when it is not derived from `input` (an MCP server's tool). */
  readonly jsonSchema?: Record<string, unknown>;
}

export interface ToolCallRequest {
  readonly conversationId: string;
  /** The provider's id for this call: approvals and transcript entries refer to it. */
  readonly toolCallId: string;
  readonly name: string;
  /** Exactly what the model sent; validated by the executor, never trusted. */
  readonly args: unknown;
}

/** Asks a person about one call and waits for the answer: the approval broker's request() by default. */
export type Approver = (input: ApprovalInput, signal: AbortSignal) => Promise<ApprovalOutcome>;

/**
 * What a front door may add to one call. Both plug into the one pipeline (ask, run); neither is a
 * second way to run a tool.
 */
export interface CallHooks {
  /**
   * Who asks the person for this call instead of the broker: MCP mode asks the client's user through
   * elicitation (front-doors/mcp/elicitation-approver.ts). Without one, a session that cannot ask
   * answers approval_required.
   */
  readonly approver?: Approver;
  /** Where a long tool reports how far it is (MCP notifications/progress). */
  readonly progress?: ProgressReporter;
  /**
   * Nobody watches this call (the silent memory capture before earlier messages leave the context):
   * what the policy would ask a person about is refused as approval_required instead of asked.
   */
  readonly unattended?: boolean;
}

/**
 * The seam between the callers of tools (the LLM loop in main/agent, MCP mode) and the tool-call
 * pipeline (tool-calls.ts). A caller asks which tools exist for this request and hands every call
 * over; the pipeline applies the memory switch, the policy, approvals, rate limits, timeouts and
 * the audit log. Errors come back as values for the model to read; a failing tool never ends the turn.
 */
export interface ToolExecutor {
  /** The exact tool list for the next request of this conversation. */
  list(conversationId: string): readonly ToolDescriptor[];
  /**
   * Brings the conditional parts of the tool list up to date (is a language server available for
   * the workspace's files?); the system prompt does it too. Absent: the list is always current.
   */
  refreshList?(): Promise<void>;
  /** The system prompt for the next request: persona, memory (when on), tools, workspace. */
  systemPrompt(conversationId: string): Promise<string>;
  execute(call: ToolCallRequest, signal: AbortSignal, hooks?: CallHooks): Promise<Result<unknown>>;
  /**
   * A user message starts a new turn: what was read in the previous turn no longer counts as recent.
   * `sources`: outside content the message itself carries (an MCP server's resource or prompt).
   */
  beginTurn(conversationId: string, sources?: readonly string[]): void;
  /** Rejects this conversation's pending approvals: called when the user stops a turn. */
  cancelPending(conversationId: string, reason: string): void;
}
