import type { Result } from '../../shared/result';
import type { AuditLog } from '../platform/audit/audit-log';
import type { PersonaFileName } from '../domain/policy/persona-rules';
import type { ProvenanceTracker } from '../domain/policy/provenance';
import type { CallSession } from './call-session';

export interface PersonaChange {
  readonly file: PersonaFileName;
  readonly conversationId: string;
  readonly reason: string;
}

export interface RecordSinks {
  readonly audit: Pick<AuditLog, 'record'>;
  readonly provenance: ProvenanceTracker;
  readonly now: () => number;
  /** After a successful call that changed a persona file (history keeps the version). */
  readonly onPersonaChanged?: (change: PersonaChange) => Promise<void>;
}

/** Bytes a result reports, by the tools' naming convention (bytes_written / bytes_read). */
function bytesOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const bytes = record['bytes_written'] ?? record['bytes_read'];
  return typeof bytes === 'number' ? bytes : undefined;
}

/**
 * A call that ran and may have written tells both search indexes, here and nowhere else. The
 * trigram index marks the written paths changed at once and refreshes soon, after a failure too
 * (a failed command may have written; run_command's paths are unknown, so only the refresh); the
 * semantic index re-reads the written files at its next query, after a success.
 */
function noteWrites(session: CallSession, succeeded: boolean): void {
  const { tool, ctx, accesses } = session;
  // `summary` is set once the call was approved: the tool ran (or began to).
  if (session.summary === undefined || tool === undefined || ctx === undefined) return;
  if (tool.operations.every((operation) => operation === 'read')) return;
  const written = (accesses ?? [])
    .filter((access) => access.operation !== 'read' && access.operation !== 'run')
    .map((access) => access.path);
  const { env } = ctx;
  env.ngramIndexes?.noteChanged(env.workspaceRoot, written);
  if (succeeded) for (const path of written) env.searchIndexes?.noteChanged(env.sandbox.workspaceRoot, path);
}

/**
 * record: whatever happened, one audit line (refusals included, with the paths the call named as
 * far as they were known); the search indexes hear of writes; after a success, what the model has now read (provenance), a persona
 * version per changed persona file, and a note when the user replaced the model's text.
 */
export async function record(
  session: CallSession,
  result: Result<unknown>,
  sinks: RecordSinks,
): Promise<Result<unknown>> {
  const { request } = session;
  const bytes = result.ok ? bytesOf(result.value) : undefined;
  await sinks.audit.record({
    time: new Date(session.startedAt).toISOString(),
    conversation: request.conversationId,
    tool: request.name,
    paths: [...(session.paths ?? [])],
    outcome: result.ok ? 'ok' : result.error.code,
    ...(bytes === undefined ? {} : { bytes }),
    duration_ms: Math.max(0, sinks.now() - session.startedAt),
  });
  noteWrites(session, result.ok);
  if (!result.ok) return result;
  if (session.tool?.returnsContent === true && session.accesses !== undefined)
    sinks.provenance.noteContent(request.conversationId, request.name, session.accesses);
  const mcp = session.tool?.mcp;
  // A server's answer is outside content like an injected file: a persona change after it names it.
  if (mcp !== undefined)
    sinks.provenance.noteSource(request.conversationId, `output of tool ${mcp.tool} of MCP server "${mcp.server}"`);
  for (const file of session.personaTargets ?? [])
    await sinks.onPersonaChanged?.({
      file,
      conversationId: request.conversationId,
      reason: session.summary ?? request.name,
    });
  if (session.approval?.editedContent !== undefined) {
    // The model must know the file now holds the user's text, not its proposal.
    return {
      ok: true,
      value: {
        result: result.value,
        user_edited: true,
        note: 'The user edited your proposed content before approving; the file now contains their version. Read it before changing it again.',
      },
    };
  }
  return result;
}
