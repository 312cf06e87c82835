import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { CodeIntelligence } from './code-intelligence';
import { introduced, showDiagnostic } from './diagnostic-view';
import type { ShownDiagnostic } from './diagnostic-view';
import { readWorkspaceText } from './workspace-text';

/** At most this many new problems ride along with a write's result. */
export const maxNewProblems = 20;
/** A write waits this long for the server's verdict; a slower server's problems are left to code_diagnostics. */
const waitMs = 5_000;

/** Errors and warnings: hints ("declared but never read" on a line just typed) are noise here. */
const isProblem = (diagnostic: Diagnostic): boolean => (diagnostic.severity ?? 1) <= 2;

export interface WriteWatch {
  /** After the write: the problems it introduced in the file (after minus before), capped. */
  finish(): Promise<ShownDiagnostic[]>;
}

/**
 * Diagnostics after edits, as OpenCode gives them: the problems a write_file / edit_file introduced
 * come back in its result. Only when a server is already running for the file (a write never waits
 * for a cold start) and the setting is on. Call before the write; finish() after it succeeded.
 */
export async function watchWrite(
  code: CodeIntelligence | undefined,
  sandbox: WorkspaceSandbox,
  relPath: string,
): Promise<WriteWatch | undefined> {
  if (code === undefined || !code.diagnosticsAfterEdits()) return undefined;
  const client = code.lsp.runningFor(sandbox.workspaceRoot, relPath);
  if (client === undefined) return undefined;
  let before: readonly Diagnostic[] = [];
  const current = await readWorkspaceText(sandbox, relPath);
  if (current.ok) {
    const synced = await client.sync(relPath, current.value.text);
    if (!synced.ok) return undefined;
    if (synced.value.changed || client.diagnosticsOf(synced.value.uri) === undefined) {
      await client.waitForDiagnostics(synced.value.uri, synced.value.mark, waitMs);
    }
    before = client.diagnosticsOf(synced.value.uri) ?? [];
  }
  return {
    async finish() {
      const written = await readWorkspaceText(sandbox, relPath);
      if (!written.ok) return [];
      const synced = await client.sync(relPath, written.value.text);
      if (!synced.ok) return [];
      if (synced.value.changed) await client.waitForDiagnostics(synced.value.uri, synced.value.mark, waitMs);
      const after = client.diagnosticsOf(synced.value.uri) ?? [];
      return introduced(before, after)
        .filter(isProblem)
        .slice(0, maxNewProblems)
        .map((diagnostic) => showDiagnostic(written.value.path.display, diagnostic));
    },
  };
}
