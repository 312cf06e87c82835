import type { z } from 'zod';
import type { PolicyOperation } from '../../shared/policy';
import type { Result } from '../../shared/result';
import type { ToolAccess } from '../domain/policy/access';
import type { ToolEnvironment } from './kit/tool-environment';
import type { HostGate } from '../platform/processes/network-proxy';
import type { McpToolOrigin } from '../domain/mcp-servers/mcp-approvals';

/** What the approval dialog shows for a call the policy says to ask about. */
export interface ChangePreview {
  /** One line a person can judge at a glance: "Replace 3 lines in SOUL.md". */
  readonly summary: string;
  /** The main target, workspace-relative. */
  readonly path?: string;
  /** Full text before and after, for writes and edits: the diff dialog needs both. */
  readonly before?: string;
  readonly after?: string;
  /**
   * A change to several files (code_rename): each file's full text before and after, for a
   * multi-file diff. `before`/`after` then hold all of them as one document, so a dialog that
   * knows one file still shows the whole change.
   */
  readonly files?: readonly {
    readonly path: string;
    readonly before: string;
    readonly after: string;
    /** Separate edits in this file (a rename's occurrences): the dialog's file list counts them. */
    readonly changes?: number;
  }[];
  /** Anything else worth showing: the command and its directory, a move's destination... */
  readonly facts?: Readonly<Record<string, string | number | boolean>>;
}

/** How the user answered a call that needed approval. */
export interface Approval {
  /** The user's own text in place of `after`: this, not the model's text, is what gets written. */
  readonly editedContent?: string;
  /** `before` exactly as the dialog showed it: if the file no longer matches, refuse with concurrent_modification. */
  readonly shownBefore?: string;
}

export interface ToolContext {
  readonly conversationId: string;
  /** The provider's id of this call, when it has one (a server's question during it names the call). */
  readonly toolCallId?: string;
  /** Aborted when the user stops the turn or the call times out. */
  readonly signal: AbortSignal;
  readonly env: ToolEnvironment;
  /**
   * How far a long call is (search, listing, index build, command): the MCP front door turns it into
   * notifications/progress when the client asked for them. Absent when nobody listens.
   */
  readonly progress?: ProgressReporter;
  /**
   * How a process this call starts reaches the network: `gate(requester)` answers each host it
   * reaches for (the allowed lists, else the user is asked, in the same place as this call's
   * approval). Absent (a tool run outside the pipeline): no network at all.
   */
  readonly network?: NetworkAccess;
}

export interface NetworkAccess {
  /** A gate for one process; `requester` names it to the user ("`npm install` wants to reach …"). */
  gate(requester: string): HostGate;
  /**
   * web_fetch's gate for one call: settings web.allowedHosts (which also lets a host resolve to a
   * local address), the conversation's answers, this call's, else the user is asked per host.
   * `url` is what the user is shown.
   */
  webGate(url: string): HostGate;
}

/** done so far, of total when known, and a short line a person can read. */
export type ProgressReporter = (done: number, total?: number, message?: string) => void;

/**
 * A tool is data plus two functions (VS Code separates asking from doing the same way):
 * `prepare` says what the user would approve, `run` acts. Nothing registers itself: main/tools/index.ts
 * lists every tool explicitly.
 */
export interface Tool<Input extends z.ZodType = z.ZodType, Output = unknown> {
  readonly name: string;
  /** Written for the model: what it does, when to use it, what comes back. */
  readonly description: string;
  /** Both the model's JSON Schema and the runtime validator. */
  readonly input: Input;
  /**
   * The JSON Schema the model is given when it is not derived from `input`: a user's MCP server
   * tool keeps its server's own (input is then the validator made from it).
   */
  readonly jsonSchema?: Record<string, unknown>;
  /**
   * A tool of a user's MCP server (issue 29): asked about unless the user allowed it (for the
   * conversation, always, or the server's read-only tools), whatever the policy table says.
   */
  readonly mcp?: McpToolOrigin & {
    readonly title?: string;
    /** The server's hints (readOnlyHint, destructiveHint, ...): shown on the approval card. */
    readonly annotations: Readonly<Record<string, unknown>>;
  };
  /** Every operation a call of this tool can make: what the tools panel shows next to the policy. */
  readonly operations: readonly PolicyOperation[];
  /**
   * The shape of a successful result: it types run() and is what MCP clients are given as the
   * tool's outputSchema (front-doors/mcp/tool-annotations.ts), so the two cannot drift apart.
   */
  readonly output: z.ZodType<NoInfer<Output>>;
  /**
   * The tool only ever adds (a new folder, an appended memory entry, a new commit, an upload under a
   * free name): it never overwrites or removes. MCP clients see it as destructiveHint: false.
   */
  readonly additive?: boolean;
  /** Calling again with the same arguments changes nothing more (write_file, create_directory...). */
  readonly idempotent?: boolean;
  /** What it does can reach beyond the workspace (run_command: any program, the network). */
  readonly openWorld?: boolean;
  /** Dedicated memory tools (memory_search, memory_append) exist for the model only while memory is on. */
  readonly memoryOnly?: boolean;
  /**
   * Language-server tools (code_*) exist for the model only while a server is available for the
   * open workspace's files (domain/lsp/code-availability.ts).
   */
  readonly needsLanguageServer?: boolean;
  /** The skill tool exists for the model only while at least one Agent Skill is loaded (domain/skills). */
  readonly needsSkills?: boolean;
  /** web_search exists for the model (and MCP clients) only while a search service is configured (Settings → Web). */
  readonly needsSearchService?: boolean;
  /**
   * The result carries file contents or command output (read_file, search_in_code, run_command...):
   * text that may hold injected instructions. A persona change proposed after it is flagged.
   */
  readonly returnsContent?: boolean;
  /**
   * Outside text a successful call hands the model beyond the workspace paths it reads, named as
   * the user should read it (web_fetch: "web page <url>"; skill: "skill 'pdf'"): provenance names
   * it when a persona or memory change follows in the same turn.
   */
  contentSources?(output: Output, args: z.output<Input>): readonly string[];
  /**
   * How long a call may take, when it is not the runner's default (run_command's own timeout, a
   * download waiting for the user to save). The runner aborts the call's signal after this.
   */
  timeoutMs?(args: z.output<Input>): number;
  /** The accesses a call makes. Pure: no I/O, so the policy can decide before anything runs. */
  access(args: z.output<Input>): readonly ToolAccess[];
  /** For calls the policy may ask about: what the user will see. Reads, never writes. */
  prepare?(args: z.output<Input>, ctx: ToolContext): Promise<Result<ChangePreview>>;
  run(args: z.output<Input>, ctx: ToolContext, approval?: Approval): Promise<Result<Output>>;
}

/**
 * The result type comes from the output schema: run() must return values the schema admits, so a
 * field whose values the schema narrows (an enum missing a member) fails to compile. A field the
 * schema lacks altogether is not caught by types (TS allows extra properties): the MCP contract
 * test validates real results for that.
 */
export const defineTool = <Input extends z.ZodType, OutputSchema extends z.ZodType>(
  tool: Tool<Input, z.output<OutputSchema>> & { readonly output: OutputSchema },
): Tool<Input, z.output<OutputSchema>> => tool;

/**
 * The access of a tool that acts on the one path it is given with one operation: read_file reads
 * it, write_file writes it, delete_file deletes it. What the policy decides on, stated once.
 */
export const onGivenPath =
  (operation: PolicyOperation) =>
  (args: { readonly path: string }): readonly ToolAccess[] => [{ operation, path: args.path }];

/** A tool list of mixed input types; each entry keeps its own schema. */
export type AnyTool = Tool<z.ZodType, unknown>;
