import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { decodeText, encodeText } from '../platform/disk/text-codec';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { commitFile, currentText, readTarget } from './file-changes/file-commit';
import type { CurrentFile } from './file-changes/file-commit';

/** One entry is a note, not a document: long texts belong in a file of their own. */
export const MAX_ENTRY_CHARS = 4000;

/** The text of one entry, as the model gives it (also what the memory capture before a cut offers). */
export const entryTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_ENTRY_CHARS)
  .describe('What to remember, in a sentence or a few lines. Written as a dated entry at the end of the file.');

const input = z.object({
  text: entryTextSchema,
  file: z
    .enum(['MEMORY.md', 'today'])
    .default('MEMORY.md')
    .describe(
      "'MEMORY.md' (default) for lasting facts and decisions; 'today' for a dated note in memory/YYYY-MM-DD.md (today's date), which fades in search over time.",
    ),
});
type AppendArgs = z.output<typeof input>;

const pad = (value: number) => String(value).padStart(2, '0');
/** The user's local calendar day: "today" means their today, not UTC's. */
const localDate = (now: Date) => `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
const localTime = (now: Date) => `${pad(now.getHours())}:${pad(now.getMinutes())}`;

/** Where an append goes: MEMORY.md, or today's note memory/YYYY-MM-DD.md. */
export const appendTarget = (file: AppendArgs['file'], now: Date): string =>
  file === 'today' ? `memory/${localDate(now)}.md` : 'MEMORY.md';

/**
 * The text added to the end of `current`: a Markdown list item stamped with the date (MEMORY.md) or
 * the time (a daily note, whose name is the date), continuation lines indented so they stay in the
 * item. A new daily note starts with its date as a heading. A blank line separates the entry from a
 * preceding paragraph, and a missing final newline is supplied: nothing already there is changed.
 */
export function memoryEntry(current: string, text: string, file: AppendArgs['file'], now: Date): string {
  const stamp = file === 'today' ? localTime(now) : `${localDate(now)} ${localTime(now)}`;
  const [first = '', ...rest] = text.trim().split(/\r?\n/);
  const item = [`- [${stamp}] ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `  ${line}`))].join('\n');
  if (current.trim() === '') return `${file === 'today' ? `# ${localDate(now)}\n\n` : ''}${item}\n`;
  const lastLine = current.trimEnd().split('\n').at(-1) ?? '';
  const separator = current.endsWith('\n') ? '' : '\n';
  const gap = /^\s*[-*] /.test(lastLine) || /^\s+\S/.test(lastLine) ? '' : '\n';
  return `${separator}${gap}${item}\n`;
}

async function target(args: AppendArgs, ctx: ToolContext, now: Date): Promise<Result<ResolvedPath>> {
  const resolved = await ctx.env.sandbox.resolve(appendTarget(args.file, now), 'write');
  if (!resolved.ok) return resolved;
  if (resolved.value.facts !== undefined && resolved.value.facts.kind !== 'file') {
    return err('not_a_file', `'${resolved.value.display}' is not a regular file.`);
  }
  return resolved;
}

/** The decoded current text and how to encode the addition so it matches the file. */
function decodeCurrent(
  current: CurrentFile | undefined,
  display: string,
): Result<{ text: string; encoding: string; bom: boolean }> {
  if (current === undefined) return ok({ text: '', encoding: 'utf-8', bom: false });
  if (current.bytes === undefined) {
    return err('file_too_large', `'${display}' is too large to append to; ask the user to tidy it up.`);
  }
  const decoded = decodeText(current.bytes);
  if (!decoded.ok) return decoded;
  return ok(decoded.value);
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const memoryAppendOutput = z.object({ path: z.string(), entry: z.string(), created: z.boolean() });

export const memoryAppendTool = defineTool({
  name: 'memory_append',
  description:
    'Add a dated entry to your long-term memory without rewriting anything already there: ' +
    "file 'MEMORY.md' (default) for lasting facts and decisions, 'today' for a dated note in memory/YYYY-MM-DD.md. " +
    'Use it when you learn something worth keeping across conversations; to correct or remove an old entry use edit_file on the file instead.',
  input,
  output: memoryAppendOutput,
  additive: true,
  operations: ['edit', 'write'],
  memoryOnly: true,
  // Appending to MEMORY.md edits it; today's note may not exist yet, so that is a write.
  access: (args) => [
    { operation: args.file === 'today' ? 'write' : 'edit', path: appendTarget(args.file, new Date()) },
  ],

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const now = new Date();
    const found = await readTarget(ctx, await target(args, ctx, now));
    if (!found.ok) return found;
    const { path, current } = found.value;
    const decoded = decodeCurrent(current, path.display);
    if (!decoded.ok) return decoded;
    const before = decoded.value.text;
    return ok({
      summary: `Add an entry to ${path.display}`,
      path: path.display,
      before,
      after: before + memoryEntry(before, args.text, args.file, now),
    });
  },

  async run(args, ctx, approval) {
    const now = new Date();
    let resolved = await target(args, ctx, now);
    if (!resolved.ok) return resolved;
    if (resolved.value.facts === undefined && args.file === 'today') {
      const folder = await ctx.env.sandbox.resolve('memory', 'write');
      if (!folder.ok) return folder;
      if (folder.value.facts === undefined) {
        const made = ctx.env.sandbox.makeDirectories(folder.value);
        if (!made.ok) return made;
        resolved = await target(args, ctx, now);
        if (!resolved.ok) return resolved;
      }
    }
    const path = resolved.value;
    // An append does not depend on what the model last read, so an edit by the user since then is
    // no conflict: drop the fingerprint (commitFile records the new one after writing).
    ctx.env.readTracker.forget(ctx.conversationId, path.key);
    let entry = '';
    const committed = await commitFile(ctx, path, {
      // History keeps every version of MEMORY.md, and a daily note only grows: no backup copies.
      backup: false,
      approval,
      beforeText: (current) => currentText(current),
      produce: (current) => {
        const decoded = decodeCurrent(current, path.display);
        if (!decoded.ok) return decoded;
        if (approval?.editedContent !== undefined) {
          // The user rewrote the proposal in the dialog: their whole text is what they approved.
          const bytes = encodeText(approval.editedContent, decoded.value.encoding, decoded.value.bom);
          if (!bytes.ok) return bytes;
          entry = approval.editedContent.slice(decoded.value.text.length);
          return ok({ bytes: bytes.value, details: undefined });
        }
        entry = memoryEntry(decoded.value.text, args.text, args.file, now);
        const added = encodeText(entry, decoded.value.encoding, false);
        if (!added.ok) return added;
        // The bytes already there are written back exactly as they were, then the entry.
        return ok({
          bytes: current?.bytes === undefined ? [added.value] : [current.bytes, added.value],
          details: undefined,
        });
      },
    });
    if (!committed.ok) return committed;
    return ok({ path: path.display, entry: entry.trim(), created: committed.value.created });
  },
});
