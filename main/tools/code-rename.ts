import type { Location, LocationLink, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { placeOf } from '../domain/lsp/locations';
import { lastSegment } from '../domain/lsp/name-in-text';
import { openDocument } from '../domain/lsp/open-document';
import { applyTextEdits, combinedDocument, filesOfEdit } from '../domain/lsp/workspace-edit';
import { readWorkspaceText } from '../domain/lsp/workspace-text';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { asLocations } from './code-definition';
import {
  codeOf,
  codeTargetShape,
  codeToolTimeoutMs,
  hasTarget,
  locateTarget,
  retryingOnCrash,
  targetMessage,
} from './code/code-target';
import type { CodeTarget } from './code/code-target';
import { commitFiles } from './file-changes/multi-file-commit';
import type { PlannedFile } from './file-changes/multi-file-commit';

/** A rename touching more files than this is refused: it is a refactoring to plan with the user. */
const maxFiles = 100;

const input = z
  .object({
    ...codeTargetShape,
    new_name: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\s]+$/, 'new_name is one identifier, without spaces')
      .describe('The new name.'),
  })
  .refine(hasTarget, { message: targetMessage });
type Args = z.output<typeof input>;

/** The result type is the output schema's (codeRenameOutput, below): one source, so the two cannot drift. */
export type CodeRenameOutput = z.output<typeof codeRenameOutput>;

interface RenamePlan {
  readonly oldName: string;
  readonly files: readonly (PlannedFile & { readonly edits: number })[];
}

/**
 * Where a rename by name is asked: at the name's declaration when it was found at a use and is
 * declared in another workspace file under the same name. Asked at an import, tsserver renames only
 * there (`import { greetPerson as welcome }`), and a model naming a symbol means the symbol.
 */
async function declarationOf(target: CodeTarget, symbol: string, ctx: ToolContext): Promise<Result<CodeTarget>> {
  const { client, uri, position, relPath } = target;
  const answer = await client.request<Location | Location[] | LocationLink[]>(
    'textDocument/definition',
    { textDocument: { uri }, position },
    ctx.signal,
  );
  if (!answer.ok) return answer;
  const [only, ...others] = asLocations(answer.value);
  const place = only === undefined ? undefined : placeOf(only.uri, ctx.env.sandbox.workspaceRoot);
  const code = codeOf(ctx);
  if (only === undefined || others.length > 0 || !place?.inside || place.path === relPath || !code.ok) {
    return ok(target);
  }
  const opened = await openDocument(code.value.lsp, ctx.env.sandbox, place.path);
  if (!opened.ok) return ok(target);
  const { start } = only.range;
  const name = lastSegment(symbol);
  const spelled = opened.value.text.split('\n')[start.line]?.slice(start.character, start.character + name.length);
  return ok(spelled === name ? { ...opened.value, position: start } : target);
}

/** Asks the server for the rename and computes every file's new text, reading each through the sandbox. */
async function planRename(args: Args, ctx: ToolContext): Promise<Result<RenamePlan>> {
  const located = await locateTarget(args, ctx);
  if (!located.ok) return located;
  const target = args.symbol === undefined ? located : await declarationOf(located.value, args.symbol, ctx);
  if (!target.ok) return target;
  const { client, uri, position, text } = target.value;
  const lines = text.split('\n');
  const line = lines[position.line] ?? '';
  const oldName = /^[\p{L}\p{N}_$]+/u.exec(line.slice(position.character))?.[0] ?? args.symbol ?? '';
  const answer = await client.request<WorkspaceEdit>(
    'textDocument/rename',
    { textDocument: { uri }, position, newName: args.new_name },
    ctx.signal,
  );
  if (!answer.ok) return answer;
  if (answer.value === null) {
    return err(
      'no_match',
      `Nothing renameable at ${target.value.relPath}:${position.line + 1}:${position.character + 1}.`,
    );
  }
  const files = filesOfEdit(answer.value, ctx.env.sandbox.workspaceRoot);
  if (!files.ok) return files;
  if (files.value.length === 0) return err('no_change', 'The server proposed no change for this rename.');
  if (files.value.length > maxFiles) {
    return err('file_too_large', `The rename would change ${files.value.length} files (at most ${maxFiles}).`);
  }
  const planned: (PlannedFile & { edits: number })[] = [];
  for (const file of files.value) {
    const read = await readWorkspaceText(ctx.env.sandbox, file.path);
    if (!read.ok) return read;
    planned.push({
      path: read.value.path.display,
      before: read.value.text,
      after: applyTextEdits(read.value.text, file.edits),
      edits: file.edits.length,
    });
  }
  return ok({ oldName, files: planned });
}

const summaryOf = (plan: RenamePlan, args: Args) =>
  `Rename ${plan.oldName || 'symbol'} to ${args.new_name} in ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}`;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeRenameOutput = z.object({
  old_name: z.string(),
  new_name: z.string(),
  files: z.array(z.object({ path: z.string(), edits: z.number().int(), backup_path: z.string().exactOptional() })),
  edits: z.number().int(),
});

export const codeRenameTool = defineTool({
  name: 'code_rename',
  description:
    'Rename a symbol everywhere it is used, through the language server (a real rename: no false hits in comments or same-named symbols). ' +
    'Address it by position (path, line, column; 1-based) or by name (symbol, optionally with path). All files change together or none do; each keeps a backup. ' +
    'The user reviews the change as a multi-file diff.',
  input,
  output: codeRenameOutput,
  needsLanguageServer: true,
  operations: ['edit'],
  // The files are known only once the server answers: the call is decided as an edit of the
  // workspace ('.'), which the catch-all rule governs (ask, by default), plus the named file.
  access: (args) => [
    { operation: 'edit', path: '.' },
    ...(args.path === undefined ? [] : [{ operation: 'edit' as const, path: args.path }]),
  ],
  timeoutMs: () => codeToolTimeoutMs,

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const plan = await retryingOnCrash(() => planRename(args, ctx));
    if (!plan.ok) return plan;
    const { files } = plan.value;
    return ok({
      summary: summaryOf(plan.value, args),
      ...(files.length === 1 && files[0] !== undefined ? { path: files[0].path } : {}),
      before: combinedDocument(files.map((file) => ({ path: file.path, text: file.before }))),
      after: combinedDocument(files.map((file) => ({ path: file.path, text: file.after }))),
      files: files.map(({ path, before, after, edits }) => ({ path, before, after, changes: edits })),
      facts: {
        files: files.map((file) => file.path).join(', '),
        edits: files.reduce((sum, file) => sum + file.edits, 0),
      },
    });
  },

  async run(args, ctx, approval): Promise<Result<CodeRenameOutput>> {
    const plan = await retryingOnCrash(() => planRename(args, ctx));
    if (!plan.ok) return plan;
    const { files } = plan.value;
    if (
      approval?.shownBefore !== undefined &&
      approval.shownBefore !== combinedDocument(files.map((file) => ({ path: file.path, text: file.before })))
    ) {
      return err(
        'concurrent_modification',
        'The files changed after the user was shown the rename; nothing was changed. Propose it again.',
      );
    }
    // The dialog's edited text is one combined document: a rename is applied as the server computed it.
    const committed = await commitFiles(ctx, files);
    if (!committed.ok) return committed;
    return ok({
      old_name: plan.value.oldName,
      new_name: args.new_name,
      files: committed.value.map((file, index) => ({ ...file, edits: files[index]?.edits ?? 0 })),
      edits: files.reduce((sum, file) => sum + file.edits, 0),
    });
  },
});
