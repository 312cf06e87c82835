/**
 * Every failure that crosses a boundary (IPC, tool result, MCP) carries one of these stable codes.
 * Messages may change and are written for the reader (the model or the user); codes never change.
 */
export const errorCodes = [
  // transport and contract
  'unknown_call',
  'invalid_payload',
  'forbidden_sender',
  'disconnected',
  'internal_error',
  // sandbox and file tools
  'file_not_found',
  'not_a_file',
  'not_a_directory',
  'permission_denied',
  'invalid_path',
  /** A symlink (or a chain of them) leads out of the workspace. */
  'symlink_escape',
  /** A regular file with several hard links: its content may be an outside file's (SECURITY.md). */
  'hard_link_refused',
  'encoding_error',
  'file_too_large',
  'binary_file',
  /** A PNG, JPEG, GIF or WebP by its first bytes whose header cannot be read (truncated, damaged). */
  'image_unreadable',
  /** A PDF that cannot be opened: encrypted with a password, or damaged (details.reason says which). */
  'pdf_unreadable',
  'parent_dir_not_found',
  'directory_not_empty',
  'directory_exists',
  'destination_exists',
  'no_match',
  'multiple_matches',
  'no_change',
  'concurrent_modification',
  'rate_limited',
  'timeout',
  // approvals and policy
  'user_rejected',
  'approval_required',
  'unknown_tool',
  'invalid_arguments',
  'invalid_policy',
  // commands and git
  'command_denied',
  'not_a_git_repo',
  'command_not_found',
  'git_failed',
  // language servers
  /** No server covers the file's language, or its program is not installed: details carry an install hint. */
  'language_server_unavailable',
  /** The server crashed, or gave no answer in time; it is restarted on the next call. */
  'language_server_failed',
  /** A user's MCP server is not ready (starting, restarting, failed, switched off, removed). */
  'mcp_server_unavailable',
  /** A user's MCP server answered a tool call with an error (or an answer that was not valid). */
  'mcp_tool_error',
  /** A user's MCP server could not read a resource or give a prompt the user attached to a message. */
  'mcp_request_failed',
  // providers and the loop
  'provider_not_configured',
  'auth_failed',
  'provider_rate_limited',
  'network_error',
  'model_not_found',
  'context_too_long',
  'provider_error',
  'aborted',
  'not_found',
  'turn_in_progress',
  /** A message with pictures for a model that does not take them (its "supports images" switch is off). */
  'images_not_supported',
  /** web_search without a search service (Settings → Web → Search), or Brave/Tavily without a saved key. */
  'search_not_configured',
  /** The search service answered with an error or with something that is not its JSON (details.status, details.service). */
  'search_failed',
  /** MCP mode with no --workspace and no usable client root: nothing to work on yet. */
  'workspace_unavailable',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/**
 * An error as a value. Its zod schema is in error-schemas.ts: this file and result.ts hold no zod, so
 * the file threads, which use both, do not load zod (~100 modules, tens of ms of each thread's start).
 */
export interface FamiliarError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/** The message of something thrown (an Error's message, else the value as text), for an error value or a log line. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
