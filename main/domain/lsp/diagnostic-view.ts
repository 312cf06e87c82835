import type { Diagnostic } from 'vscode-languageserver-protocol';

/** A diagnostic as the assistant sees it: 1-based positions, severity as a word. */
export interface ShownDiagnostic {
  readonly path: string;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly line: number;
  readonly column: number;
  readonly end_line: number;
  readonly end_column: number;
  readonly message: string;
  readonly source?: string;
  readonly code?: string | number;
}

const severities = ['error', 'error', 'warning', 'info', 'hint'] as const;

/** Messages are capped: a type error can print a whole type. */
const maxMessage = 600;

export function showDiagnostic(path: string, diagnostic: Diagnostic): ShownDiagnostic {
  const text = messageOf(diagnostic);
  const message = text.length > maxMessage ? `${text.slice(0, maxMessage)}…` : text;
  return {
    path,
    severity: severities[diagnostic.severity ?? 1] ?? 'error',
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    end_line: diagnostic.range.end.line + 1,
    end_column: diagnostic.range.end.character + 1,
    message,
    ...(diagnostic.source === undefined ? {} : { source: diagnostic.source }),
    ...(diagnostic.code === undefined ? {} : { code: diagnostic.code }),
  };
}

/** LSP 3.18 lets a message be markup. */
const messageOf = (diagnostic: Diagnostic): string =>
  typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;

const rank = { error: 0, warning: 1, info: 2, hint: 3 };

/** Errors first, then by file and line. */
export const byImportance = (a: ShownDiagnostic, b: ShownDiagnostic): number =>
  rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line;

/**
 * What an edit introduced: the diagnostics after it minus those before, compared by what they say
 * (severity, code, message) and counted, since lines move when lines are added above.
 */
export function introduced(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const key = (diagnostic: Diagnostic) =>
    `${diagnostic.severity ?? 1}|${String(diagnostic.code ?? '')}|${messageOf(diagnostic)}`;
  const remaining = new Map<string, number>();
  for (const diagnostic of before) remaining.set(key(diagnostic), (remaining.get(key(diagnostic)) ?? 0) + 1);
  return after.filter((diagnostic) => {
    const left = remaining.get(key(diagnostic)) ?? 0;
    if (left === 0) return true;
    remaining.set(key(diagnostic), left - 1);
    return false;
  });
}
