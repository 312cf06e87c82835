import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { guessEncoding } from '../platform/disk/encoding-guess';
import { notAFile } from '../platform/disk/anchored-read';
import { decodeText, encodeText, looksBinary } from '../platform/disk/text-codec';
import type { DecodedText } from '../platform/disk/text-codec';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { planExactByteEdit } from './edit/edit-bytes';
import type { ExactByteEdit } from './edit/edit-bytes';
import { describeNoMatch } from './edit/edit-hints';
import { planEdit } from './edit/edit-matching';
import type { EditPlan } from './edit/edit-matching';
import { watchWrite } from '../domain/lsp/diagnostics-after-write';
import { commitFile, readTarget } from './file-changes/file-commit';
import type { CurrentFile } from './file-changes/file-commit';
import { formatBytes } from '../../shared/format-bytes';
import { spliceDiff, wholeDiff } from './edit/unified-diff';
import { fileChangeFields } from './kit/output-shapes';

const input = z.object({
  path: z.string().describe('File path relative to the workspace root.'),
  oldText: z
    .string()
    .min(1)
    .describe('The exact text to replace, copied from the file with enough lines around it to be unique.'),
  newText: z.string().describe('The text to put in its place.'),
});
type EditArgs = z.output<typeof input>;

async function target(args: EditArgs, ctx: ToolContext): Promise<Result<ResolvedPath>> {
  const resolved = await ctx.env.sandbox.resolve(args.path, 'write');
  if (!resolved.ok) return resolved;
  const path = resolved.value;
  if (path.facts === undefined)
    return err('file_not_found', `'${path.display}' does not exist. Use write_file to create it.`);
  if (path.facts.kind !== 'file') return notAFile(path);
  return resolved;
}

// The encoding to edit in: the BOM's, else what read_file used, else UTF-8 or the best guess.
function decodeCurrent(ctx: ToolContext, path: ResolvedPath, current: CurrentFile | undefined): Result<DecodedText> {
  if (current === undefined) return err('file_not_found', `'${path.display}' no longer exists.`);
  if (current.bytes === undefined) {
    return err(
      'file_too_large',
      `'${path.display}' is ${formatBytes(current.facts.size)}; edit_file works on files up to ${formatBytes(ctx.env.limits.maxReadBytes)}.`,
    );
  }
  if (looksBinary(current.bytes, undefined)) {
    return err('binary_file', `'${path.display}' is a binary file; edit_file only changes text.`);
  }
  const seen = ctx.env.readTracker.seen(ctx.conversationId, path.key)?.encoding;
  const guessed = isUtf8(current.bytes) ? 'utf-8' : guessEncoding(current.bytes.subarray(0, 65536));
  return decodeText(current.bytes, seen ?? (guessed === 'unknown' || guessed === 'ascii' ? 'utf-8' : guessed));
}

function plan(text: string, args: EditArgs, display: string): Result<EditPlan> {
  const planned = planEdit(text, args.oldText, args.newText);
  if (!planned.ok && planned.error.code === 'no_match')
    return err('no_match', describeNoMatch(text, args.oldText, display));
  return planned;
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const editFileOutput = z.object({
  path: z.string(),
  matched_by: z.enum(['exact', 'normalized', 'whitespace', 'user']),
  start_line: z.number().int(),
  end_line: z.number().int(),
  diff: z.string(),
  ...fileChangeFields,
});

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace one piece of text in a file: oldText must match exactly one place (an exact match is tried first, then one tolerant of ' +
    "quote/dash/space differences and of indentation). Keeps the file's encoding and line endings and every byte outside the edited span. " +
    'Returns a unified diff. On no_match it shows the closest lines.',
  input,
  output: editFileOutput,
  operations: ['edit'],
  access: onGivenPath('edit'),

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const found = await readTarget(ctx, await target(args, ctx));
    if (!found.ok) return found;
    const { path, current } = found.value;
    const decoded = decodeCurrent(ctx, path, current);
    if (!decoded.ok) return decoded;
    const planned = plan(decoded.value.text, args, path.display);
    if (!planned.ok) return planned;
    const { startLine, endLine, replacement } = planned.value;
    const newLines = replacement.split('\n').length;
    const range = startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;
    return ok({
      summary: `Edit ${path.display}: replace ${range} (${endLine - startLine + 1} → ${newLines} lines)`,
      path: path.display,
      before: decoded.value.text,
      after: planned.value.after,
      facts: { matched_by: planned.value.matchedBy, encoding: decoded.value.encoding },
    });
  },

  async run(args, ctx, approval) {
    const resolved = await target(args, ctx);
    if (!resolved.ok) return resolved;
    const path = resolved.value;
    let decodedBefore = '';
    let editedEncoding: string | undefined;
    let exact: ExactByteEdit | undefined;
    const watch = await watchWrite(ctx.env.code, ctx.env.sandbox, path.relPath);
    const committed = await commitFile(ctx, path, {
      backup: true,
      approval,
      encoding: () => editedEncoding,
      beforeText: (current) => {
        const decoded = decodeCurrent(ctx, path, current);
        return decoded.ok ? decoded.value.text : '';
      },
      produce: (current) => {
        if (approval?.editedContent === undefined && current?.bytes !== undefined) {
          const seen = ctx.env.readTracker.seen(ctx.conversationId, path.key)?.encoding;
          exact = planExactByteEdit(current.bytes, seen, args.oldText, args.newText, path.display);
          if (exact !== undefined) {
            editedEncoding = 'utf-8';
            return ok({ bytes: exact.pieces, details: { planned: undefined, after: '' } });
          }
        }
        const decoded = decodeCurrent(ctx, path, current);
        if (!decoded.ok) return decoded;
        const { text, encoding, bom } = decoded.value;
        decodedBefore = text;
        // The user's own text from the approval dialog replaces the whole proposal.
        const planned = approval?.editedContent === undefined ? plan(text, args, path.display) : undefined;
        if (planned !== undefined && !planned.ok) return planned;
        const after = planned?.value.after ?? approval?.editedContent ?? text;
        editedEncoding = encoding;
        if (planned !== undefined && encoding === 'utf-8' && current?.bytes !== undefined) {
          // Splice the bytes themselves: everything outside the span is the file's own bytes, not a
          // re-encoding of them (and a 5 MB file is not encoded again for a one-line edit).
          const { start, end, replacement } = planned.value;
          const byteStart = (bom ? 3 : 0) + Buffer.byteLength(text.slice(0, start));
          const byteEnd = byteStart + Buffer.byteLength(text.slice(start, end));
          const bytes = [
            current.bytes.subarray(0, byteStart),
            Buffer.from(replacement, 'utf8'),
            current.bytes.subarray(byteEnd),
          ];
          return ok({ bytes, details: { planned: planned.value, after } });
        }
        const bytes = encodeText(after, encoding, bom);
        if (!bytes.ok) return bytes;
        return ok({ bytes: bytes.value, details: { planned: planned?.value, after } });
      },
    });
    if (!committed.ok) return committed;
    const backup = {
      ...(committed.value.backupPath === undefined ? {} : { backup_path: committed.value.backupPath }),
      ...(watch === undefined ? {} : { new_problems: await watch.finish() }),
    };
    if (exact !== undefined) {
      return ok({
        path: path.display,
        matched_by: 'exact',
        start_line: exact.startLine,
        end_line: exact.endLine,
        diff: exact.diff,
        bytes_written: committed.value.bytesWritten,
        ...backup,
      });
    }
    const { planned, after } = committed.value.details;
    const diff =
      planned === undefined
        ? wholeDiff(path.display, decodedBefore, after)
        : spliceDiff(path.display, decodedBefore, planned.start, planned.end, planned.replacement, planned.startLine);
    const newEndLine =
      planned === undefined
        ? after.split('\n').length
        : planned.startLine + (planned.replacement.match(/\n/g)?.length ?? 0);
    return ok({
      path: path.display,
      matched_by: planned?.matchedBy ?? 'user',
      start_line: planned?.startLine ?? 1,
      end_line: newEndLine,
      diff,
      bytes_written: committed.value.bytesWritten,
      ...backup,
    });
  },
});
