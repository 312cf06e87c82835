import type { FormattingOptions, TextEdit } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { sniffBom, decodeText, encodeText } from '../platform/disk/text-codec';
import { openDocument } from '../domain/lsp/open-document';
import { applyTextEdits } from '../domain/lsp/workspace-edit';
import { codeOf, codeToolTimeoutMs, retryingOnCrash } from './code/code-target';
import { defineTool, onGivenPath } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { commitFile } from './file-changes/file-commit';
import { wholeDiff } from './edit/unified-diff';

const input = z.object({
  path: z.string().describe('File to format, relative to the workspace root.'),
});
type Args = z.output<typeof input>;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeFormatOutput = z.object({
  path: z.string(),
  /** How many edits the server made (0: already formatted, nothing written). */
  edits: z.number().int(),
  diff: z.string(),
  backup_path: z.string().exactOptional(),
});
export type CodeFormatOutput = z.output<typeof codeFormatOutput>;

interface FormatPlan {
  readonly display: string;
  readonly before: string;
  readonly after: string;
  readonly edits: number;
}

/**
 * The file's own indentation, as an editor would detect it: tabs if an indented line starts with
 * one, else the smallest run of leading spaces (2 when nothing is indented). The server formats
 * with what the file already uses instead of imposing a default.
 */
export function detectIndentation(text: string): FormattingOptions {
  let smallest = Number.POSITIVE_INFINITY;
  for (const line of text.split('\n').slice(0, 2000)) {
    if (line.startsWith('\t')) return { tabSize: 4, insertSpaces: false };
    const spaces = /^( +)\S/.exec(line)?.[1]?.length;
    if (spaces !== undefined && spaces < smallest) smallest = spaces;
  }
  const tabSize = Number.isFinite(smallest) && smallest <= 8 ? smallest : 2;
  return { tabSize, insertSpaces: true, trimTrailingWhitespace: true, insertFinalNewline: true };
}

/** Asks the file's server to format it (textDocument/formatting) and applies its edits to the text it was given. */
async function planFormat(args: Args, ctx: ToolContext): Promise<Result<FormatPlan>> {
  const code = codeOf(ctx);
  if (!code.ok) return code;
  const opened = await openDocument(code.value.lsp, ctx.env.sandbox, args.path);
  if (!opened.ok) return opened;
  const { client, uri, text, display } = opened.value;
  const answer = await client.request<TextEdit[]>(
    'textDocument/formatting',
    { textDocument: { uri }, options: detectIndentation(text) },
    ctx.signal,
  );
  if (!answer.ok) {
    return answer.error.code === 'language_server_failed' &&
      /Unhandled method|not supported/i.test(answer.error.message)
      ? err('language_server_unavailable', `The ${client.serverId} language server does not format files.`)
      : answer;
  }
  const edits = answer.value ?? [];
  return ok({ display, before: text, after: applyTextEdits(text, edits), edits: edits.length });
}

export const codeFormatTool = defineTool({
  name: 'code_format',
  description:
    "Format one file with its language server (the server's own formatter, with the file's current indentation). " +
    'The user reviews the change as a diff; the previous version is kept as a backup. Answers edits: 0 when the file is already formatted.',
  input,
  output: codeFormatOutput,
  // Formatting formatted code changes nothing.
  idempotent: true,
  needsLanguageServer: true,
  operations: ['edit'],
  access: onGivenPath('edit'),
  timeoutMs: () => codeToolTimeoutMs,

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const plan = await retryingOnCrash(() => planFormat(args, ctx));
    if (!plan.ok) return plan;
    const { display, before, after, edits } = plan.value;
    if (before === after) return err('no_change', `'${display}' is already formatted.`);
    return ok({ summary: `Format ${display} (${edits} edit${edits === 1 ? '' : 's'})`, path: display, before, after });
  },

  async run(args, ctx, approval): Promise<Result<CodeFormatOutput>> {
    const plan = await retryingOnCrash(() => planFormat(args, ctx));
    if (!plan.ok) return plan;
    const { display, before, after, edits } = plan.value;
    if (before === after && approval?.editedContent === undefined) {
      return ok({ path: display, edits: 0, diff: '' });
    }
    const path = await ctx.env.sandbox.resolve(args.path, 'write');
    if (!path.ok) return path;
    let written = after;
    const committed = await commitFile(ctx, path.value, {
      backup: true,
      approval,
      encoding: () => 'utf-8',
      beforeText: (current) => {
        const decoded = current?.bytes === undefined ? undefined : decodeText(current.bytes, 'utf-8');
        return decoded?.ok === true ? decoded.value.text : '';
      },
      produce: (current) => {
        if (current?.bytes === undefined) return err('file_not_found', `'${display}' no longer exists.`);
        const decoded = decodeText(current.bytes, 'utf-8');
        // The server formatted the text read a moment ago: anything else on disk now is someone else's change.
        if (!decoded.ok || decoded.value.text !== before) {
          return err(
            'concurrent_modification',
            `'${display}' changed while it was being formatted; nothing was written. Run code_format again.`,
          );
        }
        // The user's own text from the approval dialog is what gets written, as with edit_file.
        written = approval?.editedContent ?? after;
        const bytes = encodeText(written, 'utf-8', sniffBom(current.bytes) !== undefined);
        return bytes.ok ? ok({ bytes: bytes.value, details: undefined }) : bytes;
      },
    });
    if (!committed.ok) return committed;
    return ok({
      path: display,
      edits,
      diff: wholeDiff(display, before, written),
      ...(committed.value.backupPath === undefined ? {} : { backup_path: committed.value.backupPath }),
    });
  },
});
