import { globPredicate } from './name-glob';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/**
 * One sensitive-file rule. `pattern` without a slash matches a file or folder name at any depth
 * (`*.pem`); ending with `/` it names a folder whose whole content is covered (`.git/`); otherwise it
 * is a glob over the workspace-relative path. `writes` rules let the assistant read but never change.
 */
export interface DenyRule {
  readonly pattern: string;
  readonly scope: 'all' | 'writes';
}

/** Secrets and keys are never read or written; git's internals are never written (history is the user's). */
export const defaultDenyRules: readonly DenyRule[] = [
  { pattern: '.env*', scope: 'all' },
  { pattern: '*.pem', scope: 'all' },
  { pattern: '*.key', scope: 'all' },
  { pattern: 'id_rsa*', scope: 'all' },
  { pattern: '.git/', scope: 'writes' },
];

export interface DenyList {
  /** Refuses `relPath` ('' = root) for this kind of access with permission_denied. */
  check(relPath: string, access: 'read' | 'write'): Result<void>;
  /** True when a read of this path is denied: enumerating tools skip such files' contents. */
  deniesRead(relPath: string): boolean;
}

interface CompiledRule {
  readonly rule: DenyRule;
  readonly matches: (relPath: string) => boolean;
  /** For name rules: the test on the name alone. */
  readonly name?: (name: string) => boolean;
}

const nocase = process.platform !== 'linux';

function compile(rule: DenyRule): CompiledRule {
  if (rule.pattern.endsWith('/')) {
    const name = globPredicate(rule.pattern.slice(0, -1), nocase);
    return { rule, matches: (relPath) => relPath.split('/').some((segment) => name(segment)) };
  }
  if (!rule.pattern.includes('/')) {
    const name = globPredicate(rule.pattern, nocase);
    return { rule, name, matches: (relPath) => name(relPath.slice(relPath.lastIndexOf('/') + 1)) };
  }
  const path = globPredicate(rule.pattern, nocase);
  return { rule, matches: (relPath) => path(relPath) };
}

export function createDenyList(rules: readonly DenyRule[] = defaultDenyRules): DenyList {
  const compiled = rules.map(compile);
  const find = (relPath: string, access: 'read' | 'write') =>
    relPath === ''
      ? undefined
      : compiled.find((c) => (access === 'write' || c.rule.scope === 'all') && c.matches(relPath));
  // Enumerating tools ask this for every file: the name rules first, the rest only when present.
  const readRules = compiled.filter((c) => c.rule.scope === 'all');
  const nameTests = readRules.flatMap((c) => (c.name === undefined ? [] : [c.name]));
  const pathRules = readRules.filter((c) => c.name === undefined);
  return {
    check(relPath, access) {
      const hit = find(relPath, access);
      if (hit === undefined) return ok(undefined);
      const what = hit.rule.scope === 'all' ? 'read or written' : 'changed';
      return err(
        'permission_denied',
        `'${relPath}' matches the protected pattern '${hit.rule.pattern}': such files are never ${what} by tools. ` +
          'If you need something from it, ask the user.',
        { pattern: hit.rule.pattern },
      );
    },
    deniesRead(relPath) {
      const name = relPath.slice(relPath.lastIndexOf('/') + 1);
      for (const test of nameTests) if (test(name)) return true;
      return pathRules.length > 0 && pathRules.some((c) => c.matches(relPath));
    },
  };
}
