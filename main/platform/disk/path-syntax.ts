import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/** Longer paths are refused: PATH_MAX on Linux, and no real project needs more. */
export const maxPathLength = 4096;

const hint = "Give a path relative to the workspace root, e.g. 'src/index.ts' ('.' is the root).";

/**
 * Checks the text of a path the model wrote, before any disk access, and returns it normalized:
 * POSIX separators, no `.` segments, no trailing slash, '' for the root. Only syntax is judged
 * here; where the path really leads (symlinks) is resolveInWorkspace's job.
 */
export function parseWorkspacePath(raw: string): Result<string> {
  if (raw.length === 0) return err('invalid_path', `The path is empty. ${hint}`);
  if (raw.length > maxPathLength) {
    return err('invalid_path', `The path is ${raw.length} characters long; the limit is ${maxPathLength}.`);
  }
  if (raw.includes('\0')) return err('invalid_path', `The path contains a NUL byte. ${hint}`);
  if (raw.startsWith('/') || raw.startsWith('\\')) {
    return err(
      'invalid_path',
      `'${raw}' is an absolute path (or a UNC share); tools only accept paths inside the workspace. ${hint}`,
    );
  }
  if (/^[A-Za-z]:/.test(raw)) {
    return err(
      'invalid_path',
      `'${raw}' is a Windows drive path; tools only accept paths inside the workspace. ${hint}`,
    );
  }
  // Models trained on Windows transcripts write backslashes; treat them as separators.
  const segments = raw.replaceAll('\\', '/').split('/');
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      return err('invalid_path', `'${raw}' contains a '..' segment; tools never leave the workspace. ${hint}`);
    }
    kept.push(segment);
  }
  return ok(kept.join('/'));
}

/** How a normalized path is shown to the model: the root is '.'. */
export const displayPath = (relPath: string): string => (relPath === '' ? '.' : relPath);

/** The last segment of a normalized path ('' for the root). */
export const baseName = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

/** The folder a normalized path is in ('' for root-level names). */
export const parentRel = (relPath: string): string =>
  relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : '';

/** A name a folder can hold, not a path: '.' and '..' would name the folder itself or its parent. */
export const isEntryName = (name: string): boolean =>
  name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');

/** Joins normalized segments. */
export const joinRel = (parent: string, name: string): string => (parent === '' ? name : `${parent}/${name}`);
