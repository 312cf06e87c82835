import type { Position } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { CodeIntelligence } from '../domain/lsp/code-intelligence';
import { candidateFiles, findInDocument } from '../domain/lsp/find-symbol';
import type { LanguageClient } from '../domain/lsp/language-client';
import { ensureSomeDocumentOpen, openDocument } from '../domain/lsp/open-document';
import type { ToolAccess } from '../domain/policy/access';
import { defineTool } from './define-tool';
import type { Tool, ToolContext } from './define-tool';

/**
 * How code_definition, code_references, code_hover and code_rename name what they ask about: a
 * position (path + line + column, 1-based as read_file shows lines) or a symbol's name, since
 * agents think in names. A name is looked up in `path` when given, else in the whole workspace.
 */
export const codeTargetShape = {
  path: z
    .string()
    .optional()
    .describe('File relative to the workspace root. Required with line/column; with symbol it narrows the search.'),
  line: z.number().int().min(1).optional().describe('1-based line of the position.'),
  column: z.number().int().min(1).optional().describe('1-based column (character) on that line.'),
  symbol: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Instead of a position: the name of the symbol, e.g. "formatPrice" or "Cart.total".'),
};

type TargetArgs = z.output<z.ZodObject<typeof codeTargetShape>>;

/** A call may start a server and wait for its project to load (LspService: coldRequestMs). */
export const codeToolTimeoutMs = 60_000;

export const hasTarget = (args: TargetArgs): boolean =>
  args.symbol !== undefined || (args.path !== undefined && args.line !== undefined && args.column !== undefined);
export const targetMessage = 'Give either path, line and column, or symbol (optionally with path).';

export const targetAccess = (args: TargetArgs): readonly ToolAccess[] =>
  args.path === undefined ? [] : [{ operation: 'read', path: args.path }];

export interface CodeTarget {
  readonly client: LanguageClient;
  readonly relPath: string;
  readonly uri: string;
  readonly text: string;
  readonly position: Position;
}

export function codeOf(ctx: ToolContext): Result<CodeIntelligence> {
  const code = ctx.env.code;
  return code === undefined
    ? err('language_server_unavailable', 'Code intelligence is not available in this mode.')
    : ok(code);
}

/** The file and 0-based position a call is about, with the file open in its server. */
export async function locateTarget(args: TargetArgs, ctx: ToolContext): Promise<Result<CodeTarget>> {
  const code = codeOf(ctx);
  if (!code.ok) return code;
  const { lsp } = code.value;
  const { sandbox } = ctx.env;
  if (args.symbol === undefined) {
    if (args.path === undefined || args.line === undefined || args.column === undefined) {
      return err('invalid_arguments', targetMessage);
    }
    const opened = await openDocument(lsp, sandbox, args.path);
    if (!opened.ok) return opened;
    const { client, relPath, uri, text } = opened.value;
    return ok({ client, relPath, uri, text, position: { line: args.line - 1, character: args.column - 1 } });
  }
  if (args.path !== undefined) {
    const opened = await openDocument(lsp, sandbox, args.path);
    if (!opened.ok) return opened;
    const { client, relPath, uri, text } = opened.value;
    const found = await findInDocument(client, uri, relPath, args.symbol, ctx.signal);
    if (!found.ok) return found;
    return ok({ client, relPath, uri, text, position: found.value.position });
  }
  // Any server will do to find a name: the one already running, else the first the workspace needs.
  const running = lsp.status().find((status) => status.state === 'running');
  const client = await ensureSomeDocumentOpen(
    lsp,
    sandbox,
    running === undefined ? undefined : lsp.client(running.server),
    ctx.signal,
  );
  if (!client.ok) return client;
  const files = await candidateFiles(client.value, sandbox, args.symbol, ctx.signal);
  if (!files.ok) return files;
  const found: CodeTarget[] = [];
  const refusals: string[] = [];
  for (const file of files.value) {
    const opened = await openDocument(lsp, sandbox, file);
    if (!opened.ok) continue;
    const { client: fileClient, relPath, uri, text } = opened.value;
    const inFile = await findInDocument(fileClient, uri, relPath, args.symbol, ctx.signal);
    if (inFile.ok) found.push({ client: fileClient, relPath, uri, text, position: inFile.value.position });
    else if (inFile.error.code === 'multiple_matches') refusals.push(inFile.error.message);
  }
  const [first, ...others] = found;
  if (refusals.length > 0 || others.length > 0) {
    return err(
      'multiple_matches',
      refusals[0] ??
        `'${args.symbol}' is declared in ${found.map((target) => target.relPath).join(', ')}. Add path to say which.`,
    );
  }
  if (first === undefined) {
    return err(
      'not_found',
      `No symbol named '${args.symbol}' was found in the workspace. Use code_symbols with a query.`,
    );
  }
  return ok(first);
}

/**
 * Runs a code query again, once, when its server died under it: the client restarts it (after its
 * backoff) and the query opens its documents anew. A second failure is the answer.
 */
export async function retryingOnCrash<T>(query: () => Promise<Result<T>>): Promise<Result<T>> {
  const first = await query();
  if (first.ok || first.error.code !== 'language_server_failed') return first;
  return query();
}

/**
 * A query addressed by position or symbol (code_definition, code_references, code_hover): it only
 * reads, its answer carries file text, it may wait for a cold server, and it is asked again once
 * after a crash. The tool gives its name, words for the model, input and query.
 */
export function defineCodeQuery<Input extends z.ZodType<TargetArgs>, Output>(query: {
  readonly name: string;
  readonly description: string;
  readonly input: Input;
  readonly output: z.ZodType<NoInfer<Output>>;
  run(args: z.output<Input>, ctx: ToolContext): Promise<Result<Output>>;
}): Tool<Input, Output> {
  return defineTool({
    name: query.name,
    description: query.description,
    input: query.input,
    output: query.output,
    needsLanguageServer: true,
    operations: ['read'],
    returnsContent: true,
    access: targetAccess,
    timeoutMs: () => codeToolTimeoutMs,
    run: (args, ctx) => retryingOnCrash(() => query.run(args, ctx)),
  });
}
