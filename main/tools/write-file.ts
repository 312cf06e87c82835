import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { canonicalEncoding, encodeText, sniffBom, unknownEncoding } from '../platform/disk/text-codec';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { watchWrite } from '../domain/lsp/diagnostics-after-write';
import { commitFile, currentText, readTarget } from './file-changes/file-commit';
import { parentRel } from '../platform/disk/path-syntax';
import type { CurrentFile } from './file-changes/file-commit';
import { formatBytes } from '../../shared/format-bytes';
import { fileChangeFields } from './kit/output-shapes';

const input = z.object({
  path: z.string().describe('File path relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
  encoding: z
    .string()
    .optional()
    .describe(
      "Default: the existing file's encoding when it has a byte order mark, else utf-8. E.g. 'windows-1251', 'utf-16le'.",
    ),
  create_dirs: z.boolean().default(true).describe('Create missing parent folders (default true).'),
  backup: z
    .boolean()
    .default(true)
    .describe("Keep the previous version restorable in Familiar's backups (default true)."),
});
type WriteArgs = z.output<typeof input>;

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

async function target(args: WriteArgs, ctx: ToolContext): Promise<Result<ResolvedPath>> {
  const resolved = await ctx.env.sandbox.resolve(args.path, 'write');
  if (!resolved.ok) return resolved;
  if (resolved.value.relPath === '' || resolved.value.facts?.kind === 'directory') {
    return err('not_a_file', `'${resolved.value.display}' is a folder; give a file path inside it.`);
  }
  if (resolved.value.facts !== undefined && resolved.value.facts.kind !== 'file') {
    return err('not_a_file', `'${resolved.value.display}' is not a regular file.`);
  }
  return resolved;
}

// The encoding to write: asked for, else the BOM's of the file being replaced, else utf-8.
function encodingFor(args: WriteArgs, current: CurrentFile | undefined): Result<{ encoding: string; bom: boolean }> {
  const existing = current?.bytes === undefined ? undefined : sniffBom(current.bytes);
  if (args.encoding === undefined) return ok({ encoding: existing?.encoding ?? 'utf-8', bom: existing !== undefined });
  const encoding = canonicalEncoding(args.encoding);
  if (encoding === undefined) return unknownEncoding(args.encoding);
  // UTF-16 gets a BOM so it reads back as text; others keep the BOM they had.
  const bom = existing !== undefined ? existing.encoding === encoding : encoding.startsWith('utf-16');
  return ok({ encoding, bom });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const writeFileOutput = z.object({
  path: z.string(),
  created: z.boolean(),
  encoding: z.string(),
  ...fileChangeFields,
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file or replace its whole content (atomically: never half-written). Missing folders are created unless create_dirs is false. ' +
    "The previous version is kept in Familiar's backups. For small changes to an existing file prefer edit_file.",
  input,
  output: writeFileOutput,
  idempotent: true,
  operations: ['write'],
  access: onGivenPath('write'),

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const found = await readTarget(ctx, await target(args, ctx));
    if (!found.ok) return found;
    const { path, current } = found.value;
    const before = currentText(current, args.encoding);
    const summary =
      current === undefined
        ? `Create ${path.display} (${lineCount(args.content)} lines)`
        : `Replace the content of ${path.display} (${lineCount(before)} → ${lineCount(args.content)} lines)`;
    return ok({
      summary,
      path: path.display,
      before,
      after: args.content,
      facts: {
        bytes: Buffer.byteLength(args.content),
        created: current === undefined,
        ...(current !== undefined && current.bytes === undefined
          ? { replaces: `a ${formatBytes(current.facts.size)} file` }
          : {}),
      },
    });
  },

  async run(args, ctx, approval) {
    let resolved = await target(args, ctx);
    if (!resolved.ok) return resolved;
    if (resolved.value.facts === undefined) {
      const parent = await ctx.env.sandbox.resolve(parentRel(resolved.value.relPath) || '.', 'write');
      if (!parent.ok) return parent;
      if (parent.value.facts === undefined) {
        if (!args.create_dirs) {
          return err(
            'parent_dir_not_found',
            `The folder '${parent.value.display}' does not exist. Create it with create_directory, or call write_file with create_dirs: true.`,
          );
        }
        const made = ctx.env.sandbox.makeDirectories(parent.value);
        if (!made.ok) return made;
        resolved = await target(args, ctx);
        if (!resolved.ok) return resolved;
      } else if (parent.value.facts.kind !== 'directory') {
        return err('not_a_directory', `'${parent.value.display}' is a file, not a folder.`);
      }
    }
    const content = approval?.editedContent ?? args.content;
    let chosen = 'utf-8';
    const watch = await watchWrite(ctx.env.code, ctx.env.sandbox, resolved.value.relPath);
    const committed = await commitFile(ctx, resolved.value, {
      backup: args.backup,
      approval,
      encoding: () => chosen,
      beforeText: (current) => currentText(current, args.encoding),
      produce: (current) => {
        const encoding = encodingFor(args, current);
        if (!encoding.ok) return encoding;
        chosen = encoding.value.encoding;
        const bytes = encodeText(content, encoding.value.encoding, encoding.value.bom);
        if (!bytes.ok) return bytes;
        if (bytes.value.length > ctx.env.limits.maxWriteBytes) {
          return err(
            'file_too_large',
            `The content is ${formatBytes(bytes.value.length)}; write_file stops at ${formatBytes(ctx.env.limits.maxWriteBytes)}. Split it into several files.`,
          );
        }
        return ok({ bytes: bytes.value, details: undefined });
      },
    });
    if (!committed.ok) return committed;
    return ok({
      path: resolved.value.display,
      bytes_written: committed.value.bytesWritten,
      created: committed.value.created,
      encoding: chosen,
      ...(committed.value.backupPath === undefined ? {} : { backup_path: committed.value.backupPath }),
      ...(watch === undefined ? {} : { new_problems: await watch.finish() }),
    });
  },
});
