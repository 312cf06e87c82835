import { messageOf } from '../../../shared/errors';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalInput, ApprovalOutcome } from '../../domain/approvals/broker';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../../domain/approvals/broker';
import type { Approver } from '../../tool-calls/tool-executor';
import { wholeDiff } from '../../tools/edit/unified-diff';

/** Past this, the diff in the question is cut: a client shows the message as text, not as a diff viewer. */
const MAX_DIFF_CHARS = 20_000;

/** What the person reads: the one-line summary, the paths, the facts, warnings and, for writes, the diff. */
export function elicitationMessage(input: ApprovalInput): string {
  const lines =
    input.network === undefined
      ? [`Familiar wants to ${input.tool}: ${input.summary}`, `Paths: ${input.paths.join(', ')}`]
      : input.network.kind === 'web'
        ? [`Familiar's ${input.tool} asks to read a web page: ${input.summary}`]
        : input.network.kind === 'mcp-server'
          ? [`An MCP server Familiar runs asks for the network: ${input.summary}`]
          : [`A command Familiar runs (${input.tool}) asks for the network: ${input.summary}`];
  for (const [name, value] of Object.entries(input.facts ?? {})) lines.push(`${name}: ${String(value)}`);
  for (const warning of input.warnings) lines.push(`Warning: ${warning}`);
  // A change to several files (a rename) carries each file's texts; a single write its own.
  const changed =
    input.files?.map((file) => wholeDiff(file.path, file.before, file.after)) ??
    (input.after === undefined ? [] : [wholeDiff(input.paths[0] ?? 'file', input.before ?? '', input.after)]);
  if (changed.length > 0) {
    const diff = changed.join('\n');
    lines.push('', diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut)` : diff);
  }
  return lines.join('\n');
}

/** A network question's three spans of "allow" (issue 28): this command, the session, this workspace for good. */
const allowHostSpans = [
  { const: 'once', title: 'Allow for this command only' },
  { const: 'conversation', title: 'Allow for the rest of the session' },
  { const: 'workspace', title: 'Always allow in this workspace' },
];

/** ...and web_fetch's: this fetch, the session, always (settings web.allowedHosts). */
const allowWebHostSpans = [
  { const: 'once', title: 'Allow for this fetch only' },
  { const: 'conversation', title: 'Allow for the rest of the session' },
  { const: 'workspace', title: 'Always allow (kept in settings web.allowedHosts)' },
];

/** ...and an MCP server's: this request, or always for that server (kept in its grants). */
const allowServerHostSpans = [
  { const: 'once', title: 'Allow this request only' },
  { const: 'workspace', title: 'Always allow for this server (kept in its grants in Settings)' },
];

const hostSpans = (kind: NonNullable<ApprovalInput['network']>['kind']) =>
  kind === 'web' ? allowWebHostSpans : kind === 'mcp-server' ? allowServerHostSpans : allowHostSpans;

const requestedSchema = (input: ApprovalInput): ElicitRequestFormParams['requestedSchema'] => ({
  type: 'object',
  properties:
    input.network !== undefined
      ? {
          allow: {
            type: 'string',
            title: 'Allow this host',
            oneOf: hostSpans(input.network.kind),
            default: 'once',
          },
        }
      : input.canAllowForConversation
        ? {
            allow_for_session: {
              type: 'boolean',
              title: 'Also allow this for the rest of the session',
              default: false,
            },
          }
        : {},
});

const rejected = (reason: string, expired = false): ApprovalOutcome => ({ approved: false, reason, expired });

/**
 * The MCP front door's approver: the call's approval question goes to the client's user as
 * `elicitation/create` (accept runs the call, decline or cancel answers user_rejected). Undefined
 * when the client did not declare elicitation: the pipeline then answers approval_required as before.
 * Plugged into the one pipeline's ask stage (tool-calls/ask.ts) through CallHooks.approver.
 */
export function elicitationApprover(server: Server, relatedRequestId: RequestId): Approver | undefined {
  if (server.getClientCapabilities()?.elicitation?.form === undefined) return undefined;
  return async (input, signal) => {
    try {
      const answer = await server.elicitInput(
        { mode: 'form', message: elicitationMessage(input), requestedSchema: requestedSchema(input) },
        // A person answers: as long as the app's own approval dialog waits, not the SDK's 60 s.
        { relatedRequestId, signal, timeout: DEFAULT_APPROVAL_TIMEOUT_MS },
      );
      if (answer.action === 'accept' && input.network !== undefined) {
        const span = answer.content?.['allow'];
        return {
          approved: true,
          allowForConversation: span === 'conversation',
          allowForWorkspace: span === 'workspace',
        };
      }
      if (answer.action === 'accept') {
        return { approved: true, allowForConversation: answer.content?.['allow_for_session'] === true };
      }
      return rejected(answer.action === 'decline' ? 'The user declined.' : 'The user dismissed the question.');
    } catch (error) {
      // A timeout, a cancelled call or a client that failed to ask: nobody approved.
      if (signal.aborted) return rejected('The call was cancelled before the user answered.');
      return rejected(`The client could not ask the user: ${messageOf(error)}`);
    }
  };
}
