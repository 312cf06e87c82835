import { globPredicate } from './name-glob';

interface Rule {
  readonly negate: boolean;
  readonly dirOnly: boolean;
  /** Has a slash: matched against the path below the .gitignore's folder; otherwise the name. */
  readonly anchored: boolean;
  readonly matches: (text: string) => boolean;
}

/** The .gitignore of one folder: its rules apply to paths below that folder. */
export interface IgnoreFrame {
  /** Workspace-relative folder holding the .gitignore ('' = root). */
  readonly dir: string;
  readonly rules: readonly Rule[];
}

const nocase = process.platform === 'darwin' || process.platform === 'win32';

/**
 * gitignore(5) rules compiled with picomatch (simple shapes as string tests, see name-glob.ts). (The `ignore` package tests every parent
 * folder of every path and caches each one: ~6 µs and some garbage per path, 40 % of a 30k-file
 * walk. Our walker never enters an ignored folder, so one test per entry is all git's semantics need.)
 */
export function parseGitignore(dir: string, text: string): IgnoreFrame {
  const rules: Rule[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith('#')) continue;
    // Trailing spaces are dropped unless escaped with a backslash.
    while (line.endsWith(' ') && !line.endsWith('\\ ')) line = line.slice(0, -1);
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    const dirOnly = line.endsWith('/');
    while (line.endsWith('/')) line = line.slice(0, -1);
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    try {
      rules.push({ negate, dirOnly, anchored, matches: globPredicate(line, nocase) });
    } catch {
      // A pattern git would not understand either: skip it.
    }
  }
  return { dir, rules };
}

/**
 * Git's precedence: the last matching rule wins, deeper .gitignore files after shallower ones, so a
 * sub-folder's `!keep.log` re-includes what the root's `*.log` excluded. `frames` are root first.
 */
export function isIgnored(frames: readonly IgnoreFrame[], relPath: string, isDirectory: boolean): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  for (let f = frames.length - 1; f >= 0; f -= 1) {
    const frame = frames[f]!;
    if (frame.rules.length === 0 || (frame.dir !== '' && !relPath.startsWith(`${frame.dir}/`))) continue;
    const below = frame.dir === '' ? relPath : relPath.slice(frame.dir.length + 1);
    for (let r = frame.rules.length - 1; r >= 0; r -= 1) {
      const rule = frame.rules[r]!;
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.matches(rule.anchored ? below : name)) return !rule.negate;
    }
  }
  return false;
}
