import type { Diagnostic } from 'vscode-languageserver-protocol';
import { placeOf } from './locations';

/** One file's problems as the workspace tree counts them (shared/ipc/problems.ts carries it). */
export interface FileProblems {
  /** The workspace the server serves: a page showing another folder ignores the count. */
  readonly root: string;
  /** Workspace-relative, '/'-separated. */
  readonly path: string;
  readonly errors: number;
  readonly warnings: number;
}

/**
 * What a publishDiagnostics says about a file, as counts. A diagnostic without a severity counts
 * as an error (the protocol leaves it to the client; editors show it as one). Information and
 * hints are not problems. Files outside the workspace (library typings) are nobody's tree: none.
 */
export function problemsOf(root: string, uri: string, items: readonly Diagnostic[]): FileProblems | undefined {
  const place = placeOf(uri, root);
  if (!place.inside) return undefined;
  let errors = 0;
  let warnings = 0;
  for (const item of items) {
    const severity = item.severity ?? 1;
    if (severity === 1) errors += 1;
    else if (severity === 2) warnings += 1;
  }
  return { root, path: place.path, errors, warnings };
}
