import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { err } from '../../../shared/result';
import { userView } from './workspace-paths';
import type { WorkspaceRoots } from './workspace-paths';

/** Git's own folder is never worth showing prominently, whatever .gitignore says. */
const ALWAYS_IGNORED = '.git';
/** A .gitignore larger than this is not read (a generated monster would stall every listing). */
const MAX_GITIGNORE_BYTES = 512 * 1024;

export type EntryIgnoreTest = (name: string, isDirectory: boolean) => boolean;

export interface IgnoreOracle {
  /** A synchronous test for the entries directly inside one folder (a listing tests thousands). */
  testerFor(dirRelPath: string): Promise<EntryIgnoreTest>;
  /** Is this workspace-relative path ignored? Rules of every .gitignore from the root down apply. */
  isIgnored(relPath: string, isDirectory: boolean): Promise<boolean>;
  /** A .gitignore in this folder changed: read it again next time. */
  forget(dirRelPath: string): void;
}

const splitRel = (relPath: string) => (relPath === '' ? [] : relPath.split('/'));

/**
 * .gitignore semantics as the tree needs them: nested files apply below their folder, a deeper
 * file's negation (!pattern) can re-include, and everything inside an ignored folder is ignored
 * (git cannot re-include a file whose folder is excluded). Files are read lazily per folder and
 * cached until forget().
 */
export function createIgnoreOracle(roots: WorkspaceRoots): IgnoreOracle {
  const rules = new Map<string, Promise<Ignore | null>>();

  // Read through the sandbox like every workspace byte: a .gitignore swapped for a link is not followed out.
  const readRules = async (dirRel: string): Promise<Ignore | null> => {
    const view = userView(roots);
    const file = await view.resolve(dirRel === '' ? '.gitignore' : `${dirRel}/.gitignore`, 'read');
    if (!file.ok || file.value.facts?.kind !== 'file') return null;
    const read = await view.readWholeFile(file.value, MAX_GITIGNORE_BYTES, () => err('file_too_large', ''));
    return read.ok ? ignore({ allowRelativePaths: true }).add(read.value.bytes.toString('utf8')) : null;
  };

  const rulesOf = (dirRel: string): Promise<Ignore | null> => {
    let pending = rules.get(dirRel);
    if (pending === undefined) {
      pending = readRules(dirRel);
      rules.set(dirRel, pending);
    }
    return pending;
  };

  const testerFor = async (dirRel: string): Promise<EntryIgnoreTest> => {
    const segments = splitRel(dirRel);
    if (segments.length > 0) {
      const parentTest = await testerFor(segments.slice(0, -1).join('/'));
      if (parentTest(segments.at(-1) ?? '', true)) return () => true;
    }
    // Every .gitignore from the root down to this folder; each applies to the path below its folder.
    const chain = await Promise.all(
      Array.from({ length: segments.length + 1 }, async (_, depth) => ({
        depth,
        matcher: await rulesOf(segments.slice(0, depth).join('/')),
      })),
    );
    return (name, isDirectory) => {
      if (name === ALWAYS_IGNORED) return true;
      let ignored = false;
      for (const { depth, matcher } of chain) {
        if (matcher === null) continue;
        const below = [...segments.slice(depth), name].join('/');
        const verdict = matcher.test(isDirectory ? `${below}/` : below);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    };
  };

  return {
    testerFor,
    async isIgnored(relPath, isDirectory) {
      const segments = splitRel(relPath);
      if (segments.length === 0) return false;
      const test = await testerFor(segments.slice(0, -1).join('/'));
      return test(segments.at(-1) ?? '', isDirectory);
    },
    forget(dirRelPath) {
      rules.delete(dirRelPath);
    },
  };
}
