import { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { byImportance, showDiagnostic } from '../domain/lsp/diagnostic-view';
import type { ShownDiagnostic } from '../domain/lsp/diagnostic-view';
import type { LanguageClient } from '../domain/lsp/language-client';
import { placeOf } from '../domain/lsp/locations';
import type { CodeIntelligence } from '../domain/lsp/code-intelligence';
import { codeFilesOf, openDocument } from '../domain/lsp/open-document';
import type { ToolContext } from './define-tool';
import { defineCodeReader } from './code/code-target';
import { noticeSchema, shownDiagnosticSchema } from './kit/output-shapes';

const maxShown = 200;
/** A workspace-wide check opens at most this many files (tsserver checks only open files). */
const maxFiles = 200;
/** How long the first answer may take: a cold server loads the whole project first. */
const waitMs = 15_000;

const input = z.object({
  path: z
    .string()
    .optional()
    .describe('One file relative to the workspace root; omit to check the code files of the whole workspace.'),
});
type Args = z.output<typeof input>;

/** The result type is the output schema's (codeDiagnosticsOutput, below): one source, so the two cannot drift. */
export type CodeDiagnosticsOutput = z.output<typeof codeDiagnosticsOutput>;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeDiagnosticsOutput = z.object({
  path: z.string().exactOptional(),
  files_checked: z.number().int(),
  errors: z.number().int(),
  warnings: z.number().int(),
  diagnostics: z.array(shownDiagnosticSchema),
  truncated: z.boolean(),
  notice: noticeSchema,
});

export const codeDiagnosticsTool = defineCodeReader({
  name: 'code_diagnostics',
  description:
    'Compiler and linter problems from the language server (type errors, unresolved imports, unused code...): for one file (path) or the whole workspace. ' +
    `Each has severity, line/column (1-based), message, source and code; errors first, at most ${maxShown}.`,
  input,
  output: codeDiagnosticsOutput,
  returnsContent: true,
  run,
});

async function run(args: Args, { lsp }: CodeIntelligence, ctx: ToolContext): Promise<Result<CodeDiagnosticsOutput>> {
  const { sandbox } = ctx.env;
  let files: string[];
  let notice: string | undefined;
  if (args.path === undefined) {
    const found = await codeFilesOf(lsp, sandbox, maxFiles, ctx.signal);
    if (!found.ok) return found;
    files = found.value.files;
    if (found.value.truncated) notice = `Only the first ${maxFiles} code files were checked; give path for others.`;
  } else {
    files = [args.path];
  }
  const clients = new Set<LanguageClient>();
  const checked = new Set<string>();
  const waits: Promise<void>[] = [];
  for (const file of files) {
    const opened = await openDocument(lsp, sandbox, file);
    if (!opened.ok) {
      if (args.path !== undefined) return opened;
      continue;
    }
    clients.add(opened.value.client);
    checked.add(opened.value.uri);
    // Fresh diagnostics for a changed or new document; those already published stand otherwise.
    if (opened.value.changed || opened.value.client.diagnosticsOf(opened.value.uri) === undefined) {
      waits.push(opened.value.client.waitForDiagnostics(opened.value.uri, opened.value.mark, waitMs));
    }
  }
  await Promise.all(waits);
  const shown: ShownDiagnostic[] = [];
  for (const client of clients) {
    for (const [uri, items] of client.allDiagnostics()) {
      if (!checked.has(uri)) continue;
      const place = placeOf(uri, sandbox.workspaceRoot);
      // Problems in files outside the workspace are not the assistant's to see.
      if (!place.inside) continue;
      shown.push(...items.map((item) => showDiagnostic(place.path, item)));
    }
  }
  shown.sort(byImportance);
  return ok({
    ...(args.path === undefined ? {} : { path: args.path }),
    files_checked: checked.size,
    errors: shown.filter((item) => item.severity === 'error').length,
    warnings: shown.filter((item) => item.severity === 'warning').length,
    diagnostics: shown.slice(0, maxShown),
    truncated: shown.length > maxShown,
    ...(notice === undefined ? {} : { notice }),
  });
}
