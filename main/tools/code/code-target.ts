import type { Position } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { CodeIntelligence } from '../../domain/lsp/code-intelligence';
import { candidateFiles, findInDocument, findInFile } from '../../domain/lsp/find-symbol';
import type { LanguageClient } from '../../domain/lsp/language-client';
import { ensureSomeDocumentOpen, openDocument } from '../../domain/lsp/open-document';
import type { ToolAccess } from '../../domain/policy/access';
import { defineTool } from '../define-tool';
import type { Tool, ToolContext } from '../define-tool';

/**
 * How code_definition, code_references, code_hover and code_rename name what they ask about: a
 * position (path + line + column, 1-based as read_file shows lines) or a symbol's name, since
 * agents think in names. A name is looked up in `path` when given (declared or used there), else in
 * the whole workspace; given with a position too, the position is used and the name checks it.
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
    .describe(
      'The name of the symbol, e.g. "formatPrice" or "Cart.total", instead of a position or with one (it checks the position). With path it may be a name path only uses, such as an import.',
    ),
};

type TargetArgs = z.output<z.ZodObject<typeof codeTargetShape>>;

/** A call may start a server and wait for its project to load (LspService: coldRequestMs). */
export const codeToolTimeoutMs = 60_000;

export const hasTarget = (args: TargetArgs): boolean =>
  args.symbol !== undefined || (args.path !== undefined && args.line !== undefined && args.column !== undefined);
export const targetMessage = 'Give either path, line and column, or symbol (optionally with path).';

/**
 * What a reading code tool touches before the server answers: the file it names, if it names one.
 * Without a path the call reads through the server (a name or the whole workspace), which policy
 * cannot know beforehand.
 */
const namedFileAccess = (args: { readonly path?: string | undefined }): readonly ToolAccess[] =>
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

/**
 * A client to ask a workspace-wide question (a symbol by name, code_symbols' query): any server will
 * do, so the one already running, else the first the workspace's files need.
 */
export async function workspaceClient(code: CodeIntelligence, ctx: ToolContext): Promise<Result<LanguageClient>> {
  const { lsp } = code;
  const running = lsp.status().find((status) => status.state === 'running');
  return ensureSomeDocumentOpen(
    lsp,
    ctx.env.sandbox,
    running === undefined ? undefined : lsp.client(running.server),
    ctx.signal,
  );
}

/** The file and 0-based position a call is about, with the file open in its server. */
export async function locateTarget(args: TargetArgs, ctx: ToolContext): Promise<Result<CodeTarget>> {
  const code = codeOf(ctx);
  return code.ok ? locateWith(code.value, args, ctx) : code;
}

async function locateWith(code: CodeIntelligence, args: TargetArgs, ctx: ToolContext): Promise<Result<CodeTarget>> {
  const { lsp } = code;
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
    const near = args.line === undefined ? undefined : { line: args.line, column: args.column ?? 1 };
    const found = await findInFile(client, { uri, relPath, text }, args.symbol, near, ctx.signal);
    if (!found.ok) return found;
    return ok({ client, relPath, uri, text, position: found.value.position });
  }
  const client = await workspaceClient(code, ctx);
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

/** What a code tool says of itself: its name, words for the model, input and result shape. */
interface CodeToolFace<Input, Output> {
  readonly name: string;
  readonly description: string;
  readonly input: Input;
  readonly output: z.ZodType<Output>;
}

/**
 * A language-server tool that only reads (code_symbols, code_diagnostics and the queries below): it
 * may wait for a cold server, and it is asked again once after a crash. Besides its face the tool
 * says whether its answer carries file text, and what it asks of the code intelligence.
 */
export function defineCodeReader<Input extends z.ZodType<{ readonly path?: string | undefined }>, Output>({
  returnsContent,
  run,
  ...face
}: CodeToolFace<Input, Output> & {
  readonly returnsContent: boolean;
  readonly run: (args: z.output<Input>, code: CodeIntelligence, ctx: ToolContext) => Promise<Result<NoInfer<Output>>>;
}): Tool<Input, Output> {
  return defineTool({
    ...face,
    needsLanguageServer: true,
    operations: ['read'],
    returnsContent,
    access: namedFileAccess,
    timeoutMs: () => codeToolTimeoutMs,
    run: async (args, ctx) => {
      const code = codeOf(ctx);
      return code.ok ? retryingOnCrash(() => run(args, code.value, ctx)) : code;
    },
  });
}

/**
 * A query addressed by position or symbol (code_definition, code_references, code_hover): a code
 * reader whose answer carries file text, handed the target already located and open in its server.
 */
export function defineCodeQuery<Input extends z.ZodType<TargetArgs>, Output>({
  run,
  ...face
}: CodeToolFace<Input, Output> & {
  readonly run: (target: CodeTarget, args: z.output<Input>, ctx: ToolContext) => Promise<Result<NoInfer<Output>>>;
}): Tool<Input, Output> {
  return defineCodeReader({
    ...face,
    returnsContent: true,
    run: async (args, code, ctx) => {
      const target = await locateWith(code, args, ctx);
      return target.ok ? run(target.value, args, ctx) : target;
    },
  });
}
