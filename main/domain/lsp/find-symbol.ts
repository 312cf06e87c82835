import type { DocumentSymbol, Position, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { LanguageClient } from './language-client';
import { placeOf } from './locations';
import { firstUse, lastSegment, nearestOnLine } from './name-in-text';

/** LSP SymbolKind numbers, as words the model reads. */
const kinds = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum_member',
  'struct',
  'event',
  'operator',
  'type_parameter',
];
export const kindName = (kind: number): string => kinds[kind] ?? 'symbol';

export interface FlatSymbol {
  readonly name: string;
  readonly kind: string;
  /** Dotted chain of the symbols it sits in ("Shop.checkout" sits in "Shop"). */
  readonly container: string;
  /** 0-based, where the name itself starts (what definition/references/rename are asked at). */
  readonly position: Position;
  readonly line: number;
  readonly end_line: number;
}

/** A document's outline, flattened in order, hierarchical or not as the server answered. */
export function flattenSymbols(symbols: readonly (DocumentSymbol | SymbolInformation)[]): FlatSymbol[] {
  const flat: FlatSymbol[] = [];
  const visit = (symbol: DocumentSymbol | SymbolInformation, container: string) => {
    if ('location' in symbol) {
      flat.push({
        name: symbol.name,
        kind: kindName(symbol.kind),
        container: symbol.containerName ?? container,
        position: symbol.location.range.start,
        line: symbol.location.range.start.line + 1,
        end_line: symbol.location.range.end.line + 1,
      });
      return;
    }
    flat.push({
      name: symbol.name,
      kind: kindName(symbol.kind),
      container,
      position: symbol.selectionRange.start,
      line: symbol.range.start.line + 1,
      end_line: symbol.range.end.line + 1,
    });
    for (const child of symbol.children ?? [])
      visit(child, container === '' ? symbol.name : `${container}.${symbol.name}`);
  };
  for (const symbol of symbols) visit(symbol, '');
  return flat;
}

/** "Shop.checkout" matches checkout in Shop; "checkout" matches any checkout. */
export function matchesName(wanted: string, name: string, container: string): boolean {
  const parts = wanted.split('.');
  const last = parts.pop() ?? '';
  if (name !== last) return false;
  if (parts.length === 0) return true;
  const chain = parts.join('.');
  return container === chain || container.endsWith(`.${chain}`);
}

export interface FoundSymbol {
  readonly relPath: string;
  readonly position: Position;
}

/** A symbol's position in one file, by name (through textDocument/documentSymbol). */
export async function findInDocument(
  client: LanguageClient,
  uri: string,
  relPath: string,
  symbol: string,
  signal?: AbortSignal,
): Promise<Result<FoundSymbol>> {
  const answer = await client.request<(DocumentSymbol | SymbolInformation)[]>(
    'textDocument/documentSymbol',
    { textDocument: { uri } },
    signal,
  );
  if (!answer.ok) return answer;
  const matches = flattenSymbols(answer.value ?? []).filter((found) =>
    matchesName(symbol, found.name, found.container),
  );
  const first = matches[0];
  if (first === undefined) {
    return err('not_found', `No symbol named '${symbol}' in '${relPath}'. Use code_symbols on it to see its outline.`);
  }
  if (matches.length > 1 && new Set(matches.map((found) => found.container)).size > 1) {
    return err(
      'multiple_matches',
      `'${symbol}' names ${matches.length} symbols in '${relPath}': ${matches
        .slice(0, 10)
        .map((found) => `${found.container === '' ? '' : `${found.container}.`}${found.name} (line ${found.line})`)
        .join(', ')}. Qualify it (Class.member) or give line and column.`,
    );
  }
  return ok({ relPath, position: first.position });
}

/**
 * A symbol in one file as a tool names it: by name, maybe with a position (1-based). The position is
 * used when the name is at it or elsewhere on its line (the name checks it); else the name is looked
 * up in the file's outline; a name the file uses but does not declare (an import) is taken at its
 * first use, where the server can still say what it is.
 */
export async function findInFile(
  client: LanguageClient,
  file: { readonly uri: string; readonly relPath: string; readonly text: string },
  symbol: string,
  near: { readonly line: number; readonly column: number } | undefined,
  signal?: AbortSignal,
): Promise<Result<FoundSymbol>> {
  const { uri, relPath, text } = file;
  const name = lastSegment(symbol);
  const onLine = near === undefined ? undefined : nearestOnLine(text, near.line - 1, near.column - 1, name);
  if (onLine !== undefined) return ok({ relPath, position: onLine });
  const declared = await findInDocument(client, uri, relPath, symbol, signal);
  if (declared.ok || declared.error.code !== 'not_found') return declared;
  const used = firstUse(text, name);
  if (used !== undefined) return ok({ relPath, position: used });
  const where = near === undefined ? '' : ` at ${relPath}:${near.line}:${near.column}, nor`;
  return err(
    'not_found',
    `No symbol named '${symbol}'${where} declared or used in '${relPath}'. Use code_symbols on it to see its outline.`,
  );
}

/** Files searched for a name at most: more candidates than this and the caller must say where. */
const maxCandidateFiles = 5;

/**
 * Files that may declare a symbol, by workspace/symbol. Its ranges span whole declarations and
 * servers often leave containerName out (tsserver does), so the exact place is then found in each
 * file's outline (findInDocument).
 */
export async function candidateFiles(
  client: LanguageClient,
  sandbox: WorkspaceSandbox,
  symbol: string,
  signal?: AbortSignal,
): Promise<Result<string[]>> {
  const query = symbol.split('.').pop() ?? symbol;
  const answer = await client.request<(SymbolInformation | WorkspaceSymbol)[]>('workspace/symbol', { query }, signal);
  if (!answer.ok) return answer;
  const files = new Set<string>();
  for (const found of answer.value ?? []) {
    if (found.name !== query) continue;
    // A container the server did give must match; a missing one is checked in the outline.
    if (found.containerName && !matchesName(symbol, found.name, found.containerName)) continue;
    const place = placeOf(found.location.uri, sandbox.workspaceRoot);
    if (place.inside) files.add(place.path);
  }
  if (files.size === 0) {
    return err(
      'not_found',
      `No symbol named '${symbol}' was found in the workspace. Check the spelling, or use code_symbols with a query.`,
    );
  }
  if (files.size > maxCandidateFiles) {
    return err(
      'multiple_matches',
      `'${symbol}' is declared in ${files.size} files, e.g. ${[...files].slice(0, 10).join(', ')}. Add path (the file it is declared in) or qualify it (Class.member).`,
    );
  }
  return ok([...files]);
}
