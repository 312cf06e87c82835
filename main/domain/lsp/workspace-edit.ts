import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { placeOf } from './locations';

/** One file's share of a WorkspaceEdit, workspace-relative. */
export interface FileEdits {
  readonly path: string;
  readonly edits: readonly TextEdit[];
}

/**
 * The text edits of a WorkspaceEdit per file. Familiar applies only text edits inside the
 * workspace: creating, renaming or deleting files, or touching a file outside, refuses the whole edit.
 */
export function filesOfEdit(edit: WorkspaceEdit, workspaceRoot: string): Result<FileEdits[]> {
  const byUri = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) byUri.set(uri, [...edits]);
  for (const change of edit.documentChanges ?? []) {
    if (!('textDocument' in change)) {
      return err('permission_denied', `The server's edit would ${change.kind} a file; only text changes are applied.`);
    }
    const list = byUri.get(change.textDocument.uri) ?? [];
    for (const one of change.edits) {
      // Snippet edits (LSP 3.18) carry their text as a snippet; its value is the text.
      list.push({ range: one.range, newText: 'newText' in one ? one.newText : one.snippet.value });
    }
    byUri.set(change.textDocument.uri, list);
  }
  const files: FileEdits[] = [];
  for (const [uri, edits] of byUri) {
    const place = placeOf(uri, workspaceRoot);
    if (!place.inside) {
      return err(
        'permission_denied',
        `The change would edit a file outside the workspace (${place.package ?? ''}${place.package ? '/' : ''}${place.file}); nothing was changed.`,
      );
    }
    if (edits.length > 0) files.push({ path: place.path, edits });
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return ok(files);
}

/** Offsets of each line start: positions are (line, UTF-16 character), which JS string indices are. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The text with the edits applied (they do not overlap, per the protocol); from last to first so offsets hold. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const offset = (line: number, character: number) => {
    const start = starts[line];
    if (start === undefined) return text.length;
    const end = starts[line + 1] ?? text.length + 1;
    return Math.min(start + character, end - 1, text.length);
  };
  const spans = edits
    .map((edit) => ({
      from: offset(edit.range.start.line, edit.range.start.character),
      to: offset(edit.range.end.line, edit.range.end.character),
      text: edit.newText,
    }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  let result = text;
  for (const span of spans) result = result.slice(0, span.from) + span.text + result.slice(span.to);
  return result;
}

/**
 * Several files as one document for the approval dialog's diff: each under a header line. The
 * dialog's before is compared again at apply time (concurrent-modification check).
 */
export function combinedDocument(files: readonly { path: string; text: string }[]): string {
  return files.map((file) => `=== ${file.path} ===\n${file.text}${file.text.endsWith('\n') ? '' : '\n'}`).join('\n');
}
