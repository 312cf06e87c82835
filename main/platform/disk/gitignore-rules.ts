import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { joinRel } from './path-syntax';

/**
 * THE ignore engine of Familiar: the tools' walks, list_files, search and the workspace pane all ask
 * this one. Matching is the `ignore` package (gitignore(5) as git implements it: negation, anchoring,
 * `**`, character classes, escaped and trailing spaces; braces and extglobs are literal, as in git),
 * checked against `git check-ignore` in gitignore-rules.test.ts.
 *
 * Nested .gitignore files are rebased onto the workspace root ("generated.ts" in src/.gitignore
 * becomes "src/**\/generated.ts") and appended after the rules above them, so one rule list answers
 * with git's precedence: .git/info/exclude first (lowest), then each .gitignore from the root down,
 * the last matching rule winning, and nothing re-included below an excluded folder.
 */
export class IgnoreRules {
  static readonly none = new IgnoreRules([]);

  #matcher: Ignore | undefined;
  #tests = 0;
  /**
   * Every rule names a single name (no slash before its end): git then matches the entry's name
   * alone, so the answer depends on the name and kind only, and names repeat across a tree
   * (index.ts, package.json, test/): remembered per name, files and folders apart (keyed by the
   * name itself, so a walk's question allocates nothing).
   */
  readonly #files: Map<string, boolean> | undefined;
  readonly #folders: Map<string, boolean> | undefined;

  private constructor(private readonly patterns: readonly string[]) {
    const byName = patterns.length > 0 && patterns.every(namesOneName);
    this.#files = byName ? new Map() : undefined;
    this.#folders = byName ? new Map() : undefined;
  }

  /** Adds the rules of a .gitignore (or .git/info/exclude) that lives in folder `dir` ('' = root). */
  with(dir: string, text: string): IgnoreRules {
    const added = text.split(/\r?\n/).flatMap((line) => rebase(dir, line) ?? []);
    return added.length === 0 ? this : new IgnoreRules([...this.patterns, ...added]);
  }

  get empty(): boolean {
    return this.patterns.length === 0;
  }

  /** Is the workspace-relative path ignored, by a rule or because a folder above it is? */
  ignores(relPath: string, isDirectory: boolean): boolean {
    if (this.patterns.length === 0 || relPath === '') return false;
    // `ignore` caches every answer (the folders above each path are asked again and again); a fresh
    // matcher now and then keeps a long-lived rule set from holding every answer it ever gave.
    if (this.#tests > maxCachedAnswers) this.#matcher = undefined;
    this.#tests += 1;
    return this.#matcherFor().ignores(isDirectory ? `${relPath}/` : relPath);
  }

  /**
   * The same answer for a path whose folders are known not to be ignored (a walk never enters an
   * ignored folder), without asking about those folders again: one rule scan per entry. `ignores()`
   * caches an answer for every path and folder it sees, which cost more than the rest of a 30k-entry
   * walk put together (issue 16's profile); the rule scan it runs underneath is the same.
   */
  matchesItself(relPath: string, isDirectory: boolean): boolean {
    const slash = relPath.lastIndexOf('/');
    return this.matchesEntry(slash < 0 ? '' : relPath.slice(0, slash), relPath.slice(slash + 1), isDirectory);
  }

  /** `matchesItself` for the entry `name` of the folder `dirRel`: the walk asks it once per entry. */
  matchesEntry(dirRel: string, name: string, isDirectory: boolean): boolean {
    if (this.patterns.length === 0) return false;
    const byName = isDirectory ? this.#folders : this.#files;
    if (byName === undefined) return this.#scan(joinRel(dirRel, name), isDirectory);
    let known = byName.get(name);
    if (known === undefined) {
      known = this.#scan(joinRel(dirRel, name), isDirectory);
      if (byName.size >= maxCachedAnswers) byName.clear();
      byName.set(name, known);
    }
    return known;
  }

  #scan(relPath: string, isDirectory: boolean): boolean {
    const matcher = this.#matcherFor();
    const scan = (matcher as unknown as Partial<RuleScan>)._rules;
    const path = isDirectory ? `${relPath}/` : relPath;
    // Where a later `ignore` lays its rules out otherwise, the public (slower) question still holds.
    if (typeof scan?.test !== 'function') return matcher.ignores(path);
    return scan.test(path, 'regex').ignored;
  }

  #matcherFor(): Ignore {
    if (this.#matcher === undefined) {
      this.#matcher = ignore({ ignorecase: caseInsensitive, allowRelativePaths: true }).add(this.patterns);
      this.#tests = 0;
    }
    return this.#matcher;
  }
}

/** The rule scan inside `ignore` (7.x): the last matching rule for one path, folders above not asked. */
interface RuleScan {
  readonly _rules: { test(path: string, mode: 'regex'): { ignored: boolean; unignored: boolean } };
}

const maxCachedAnswers = 50_000;

/** A rule with no slash but a final one: git matches it against an entry's name alone. */
const namesOneName = (pattern: string) =>
  !pattern
    .replace(/^!/, '')
    .replace(/(?<!\\) +$/, '')
    .replace(/\/$/, '')
    .includes('/');

/** Git's core.ignorecase default: on for the file systems that fold case, off elsewhere. */
const caseInsensitive = process.platform === 'darwin' || process.platform === 'win32';

/** Characters a folder name must not bring into a pattern as wildcards. */
const escapeGlob = (text: string) => text.replace(/[\\*?[\]]/g, '\\$&');

/**
 * One line of the .gitignore in `dir`, as a rule relative to the workspace root (undefined for a
 * blank line or a comment). A pattern with a slash before its end is anchored to `dir`; one without
 * matches at any depth below it.
 */
export function rebase(dir: string, line: string): string | undefined {
  if (line.trim() === '' || line.startsWith('#')) return undefined;
  if (dir === '') return line;
  const negated = line.startsWith('!');
  const body = negated ? line.slice(1) : line;
  // Trailing unescaped spaces do not count, nor does one final slash, when deciding anchoring.
  const shape = body.replace(/(?<!\\) +$/, '').replace(/\/$/, '');
  const anchored = shape.includes('/');
  // A folder named '#x' or '!x' at the start of a line would read as a comment or a negation.
  const base = escapeGlob(dir).replace(/^[#!]/, '\\$&');
  const rebased = anchored ? `${base}/${body.replace(/^\//, '')}` : `${base}/**/${body}`;
  return negated ? `!${rebased}` : rebased;
}
