import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';

/**
 * Where a server's answer points, as the assistant may see it. Inside the workspace: a
 * workspace-relative path. Outside (library typings, system headers): the package and the file
 * within it, and nothing else: no absolute path (it names the user's home), no line, no text.
 */
export type PlaceOf =
  | { readonly inside: true; readonly path: string }
  | { readonly inside: false; readonly package: string | null; readonly file: string };

export function placeOf(uri: string, workspaceRoot: string): PlaceOf {
  let absolute: string;
  try {
    absolute = fileURLToPath(uri);
  } catch {
    return {
      inside: false,
      package: null,
      file:
        uri
          .replace(/^[a-z]+:\/*/i, '')
          .split('/')
          .pop() ?? '',
    };
  }
  const rel = relative(workspaceRoot, absolute);
  if (rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel)) {
    return { inside: true, path: rel.split(sep).join('/') };
  }
  const parts = absolute.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at !== -1 && at + 1 < parts.length) {
    const scoped = parts[at + 1]?.startsWith('@') === true;
    const name = parts.slice(at + 1, at + (scoped ? 3 : 2)).join('/');
    return { inside: false, package: name, file: parts.slice(at + (scoped ? 3 : 2)).join('/') };
  }
  return { inside: false, package: null, file: parts[parts.length - 1] ?? '' };
}

/** How an outside place is named in an answer. */
export const outsideName = (place: Extract<PlaceOf, { inside: false }>) => ({
  outside_workspace: true as const,
  package: place.package,
  file: place.file,
});
