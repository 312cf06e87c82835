import type { Location, Range } from 'vscode-languageserver-protocol';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { outsideName, placeOf } from './locations';
import { lineOf, readWorkspaceText } from './workspace-text';

/** A location as the assistant sees it: 1-based lines and columns, the line's text as a preview. */
export type ShownLocation =
  | {
      readonly path: string;
      readonly line: number;
      readonly column: number;
      readonly end_line: number;
      readonly end_column: number;
      /** The line's text, read through the sandbox (absent when the sandbox refuses the file). */
      readonly text?: string;
    }
  | ReturnType<typeof outsideName>;

/** Texts read for previews during one answer, so twenty references in one file read it once. */
export type TextCache = Map<string, Promise<string | undefined>>;

export const shownRange = (range: Range) => ({
  line: range.start.line + 1,
  column: range.start.character + 1,
  end_line: range.end.line + 1,
  end_column: range.end.character + 1,
});

/**
 * Inside the workspace: path, range and a preview read through the sandbox (so a denied or
 * concealed file shows its name only). Outside: package and file, never a range or text.
 */
export async function showLocation(
  location: Location,
  sandbox: WorkspaceSandbox,
  cache: TextCache,
): Promise<ShownLocation> {
  const place = placeOf(location.uri, sandbox.workspaceRoot);
  if (!place.inside) return outsideName(place);
  let text = cache.get(place.path);
  if (text === undefined) {
    text = readWorkspaceText(sandbox, place.path).then((read) => (read.ok ? read.value.text : undefined));
    cache.set(place.path, text);
  }
  const content = await text;
  const range = shownRange(location.range);
  return {
    path: place.path,
    ...range,
    ...(content === undefined ? {} : { text: lineOf(content, range.line) }),
  };
}

/** Outside places named once each: fifty hits in lib.dom.d.ts are one entry. */
export async function showLocations(
  locations: readonly Location[],
  sandbox: WorkspaceSandbox,
  max: number,
): Promise<{ locations: ShownLocation[]; total: number; truncated: boolean }> {
  const cache: TextCache = new Map();
  const seenOutside = new Set<string>();
  const shown: ShownLocation[] = [];
  for (const location of locations) {
    if (shown.length === max) return { locations: shown, total: locations.length, truncated: true };
    const one = await showLocation(location, sandbox, cache);
    if ('outside_workspace' in one) {
      const key = `${one.package ?? ''}/${one.file}`;
      if (seenOutside.has(key)) continue;
      seenOutside.add(key);
    }
    shown.push(one);
  }
  return { locations: shown, total: locations.length, truncated: false };
}
