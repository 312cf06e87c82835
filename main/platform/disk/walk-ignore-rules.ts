import * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from './anchored-fs';
import { openDirStrict } from './anchored-resolve';
import type { AnchorRoot } from './anchored-resolve';
import { IgnoreRules } from './gitignore-rules';
import type { SandboxCore } from './sandbox-core';

/**
 * What git ignores, as walks judge it: .git/info/exclude and the .gitignore files read strictly
 * from the root, and the folders nobody wants unless asked for by path.
 */

/** Folders nobody wants listed or searched unless they ask for them by path. */
export const builtInIgnores = new Set(['.git', 'node_modules']);

const maxGitignoreBytes = 1024 * 1024;

/** A .gitignore that is a regular file of sane size (a FIFO planted there must not hang the walk). */
export function readGitignore(anchored: AnchoredFs, dir: DirRef, name = '.gitignore'): string | undefined {
  let fd: number;
  try {
    fd = anchored.openFile(dir, name, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.size > maxGitignoreBytes) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    const read = fs.readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The rules git applies at the workspace root before any .gitignore: .git/info/exclude (a .git that
 * is a file, as in a linked worktree, points elsewhere and is not followed). core.excludesFile is
 * the user's, not the project's: not read.
 */
function readInfoExclude(core: SandboxCore, root: AnchorRoot): string | undefined {
  try {
    const info = openDirStrict(core.anchored, root, '.git/info', core.isProtected);
    try {
      return readGitignore(core.anchored, info.dir, 'exclude');
    } finally {
      info.release();
    }
  } catch {
    return undefined;
  }
}

/**
 * The ignore rules that bear on the entry `realRel` of the workspace (not the persona folder):
 * .git/info/exclude and the .gitignore of every folder above it, read strictly from the root.
 */
export function ignoreRulesAbove(core: SandboxCore, root: AnchorRoot, realRel: string): IgnoreRules {
  const segments = realRel === '' ? [] : realRel.split('/');
  const exclude = readInfoExclude(core, root);
  let rules = exclude === undefined ? IgnoreRules.none : IgnoreRules.none.with('', exclude);
  for (let depth = 0; depth < segments.length; depth += 1) {
    const dirRel = segments.slice(0, depth).join('/');
    try {
      const opened = openDirStrict(core.anchored, root, dirRel, core.isProtected);
      try {
        const text = readGitignore(core.anchored, opened.dir);
        if (text !== undefined) rules = rules.with(dirRel, text);
      } finally {
        opened.release();
      }
    } catch {
      break; // gone or swapped meanwhile: the rules found so far
    }
  }
  return rules;
}

/**
 * Is the workspace entry `realRel` ignored as walks judge it (git's rules, a folder above it
 * ignored, or .git / node_modules on its way)? What the workspace pane asks for one changed entry.
 */
export function isIgnoredEntry(core: SandboxCore, realRel: string, isDirectory: boolean): boolean {
  const root = core.rootOf({ inPersona: false });
  if (root === undefined || realRel === '') return false;
  if (realRel.split('/').some((segment) => builtInIgnores.has(segment))) return true;
  return ignoreRulesAbove(core, root, realRel).ignores(realRel, isDirectory);
}
