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
 * record: whatever happened, one audit line (refusals included, with the paths the call named as
 * far as they were known); after a success, what the model has now read (provenance), a persona
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
  if (!result.ok) return result;
  // The semantic index re-reads what the call changed at its next query, watcher or not.
  const env = session.ctx?.env;
  for (const access of session.accesses ?? []) {
    if (access.operation !== 'read' && access.operation !== 'run')
      env?.searchIndexes?.noteChanged(env.sandbox.workspaceRoot, access.path);
  }
  if (session.tool?.returnsContent === true && session.accesses !== undefined)
    sinks.provenance.noteContent(request.conversationId, request.name, session.accesses);
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
