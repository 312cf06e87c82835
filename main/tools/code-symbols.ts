import type { DocumentSymbol, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { flattenSymbols, kindName } from '../domain/lsp/find-symbol';
import { outsideName, placeOf } from '../domain/lsp/locations';
import type { CodeIntelligence } from '../domain/lsp/code-intelligence';
import { openDocument } from '../domain/lsp/open-document';
import type { ToolContext } from './define-tool';
import { defineCodeReader, workspaceClient } from './code/code-target';

const maxSymbols = 300;

const input = z
  .object({
    path: z.string().optional().describe("A file's outline: its classes, functions, members with their lines."),
    query: z.string().min(1).max(200).optional().describe('Or: search symbols by name across the workspace.'),
  })
  .refine((args) => (args.path === undefined) !== (args.query === undefined), {
    message: 'Give either path (an outline) or query (a workspace search), not both.',
  });
type Args = z.output<typeof input>;

export interface ShownSymbol {
  readonly name?: string;
  readonly kind?: string;
  readonly container?: string;
  readonly path?: string;
  readonly line?: number;
  readonly end_line?: number;
  readonly outside_workspace?: true;
  readonly package?: string | null;
  readonly file?: string;
}

/** The result type is the output schema's (codeSymbolsOutput, below): one source, so the two cannot drift. */
export type CodeSymbolsOutput = z.output<typeof codeSymbolsOutput>;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeSymbolsOutput = z.object({
  path: z.string().exactOptional(),
  query: z.string().exactOptional(),
  symbols: z.array(
    z.object({
      name: z.string().exactOptional(),
      kind: z.string().exactOptional(),
      container: z.string().exactOptional(),
      path: z.string().exactOptional(),
      line: z.number().int().exactOptional(),
      end_line: z.number().int().exactOptional(),
      outside_workspace: z.literal(true).exactOptional(),
      package: z.string().nullable().exactOptional(),
      file: z.string().exactOptional(),
    }),
  ),
  total: z.number().int(),
  truncated: z.boolean(),
});

export const codeSymbolsTool = defineCodeReader({
  name: 'code_symbols',
  description:
    "Symbols through the language server: with path, the file's outline (name, kind, container, line range); with query, matching symbols across the workspace with their file and line. " +
    'Use the names with code_definition, code_references, code_hover and code_rename.',
  input,
  output: codeSymbolsOutput,
  // Names, kinds and lines: no file text comes back.
  returnsContent: false,
  run,
});

async function run(args: Args, code: CodeIntelligence, ctx: ToolContext): Promise<Result<CodeSymbolsOutput>> {
  const { sandbox } = ctx.env;
  if (args.path !== undefined) {
    const opened = await openDocument(code.lsp, sandbox, args.path);
    if (!opened.ok) return opened;
    const answer = await opened.value.client.request<(DocumentSymbol | SymbolInformation)[]>(
      'textDocument/documentSymbol',
      { textDocument: { uri: opened.value.uri } },
      ctx.signal,
    );
    if (!answer.ok) return answer;
    const flat = flattenSymbols(answer.value ?? []);
    return ok({
      path: opened.value.display,
      symbols: flat.slice(0, maxSymbols).map(({ name, kind, container, line, end_line }) => ({
        name,
        kind,
        ...(container === '' ? {} : { container }),
        line,
        end_line,
      })),
      total: flat.length,
      truncated: flat.length > maxSymbols,
    });
  }
  const query = args.query ?? '';
  const client = await workspaceClient(code, ctx);
  if (!client.ok) return client;
  const answer = await client.value.request<(SymbolInformation | WorkspaceSymbol)[]>(
    'workspace/symbol',
    { query },
    ctx.signal,
  );
  if (!answer.ok) return answer;
  const seenOutside = new Set<string>();
  const symbols = (answer.value ?? []).flatMap((found): ShownSymbol[] => {
    const place = placeOf(found.location.uri, sandbox.workspaceRoot);
    const base = {
      name: found.name,
      kind: kindName(found.kind),
      ...(found.containerName ? { container: found.containerName } : {}),
    };
    if (!place.inside) {
      const named = outsideName(place);
      const key = `${named.package ?? ''}/${named.file}`;
      if (seenOutside.has(key)) return [];
      seenOutside.add(key);
      // Outside: the file it lives in, nothing of what the file says.
      return [named];
    }
    return [
      {
        ...base,
        path: place.path,
        ...('range' in found.location ? { line: found.location.range.start.line + 1 } : {}),
      },
    ];
  });
  if (symbols.length === 0 && answer.value === null) return err('not_found', `No symbols match '${query}'.`);
  return ok({
    query,
    symbols: symbols.slice(0, maxSymbols),
    total: symbols.length,
    truncated: symbols.length > maxSymbols,
  });
}
