/**
 * How a line is shown in a search result, whichever engine found it (fs-worker-jobs.ts or
 * ripgrep-search.ts): the line ending and a UTF-8 BOM dropped, and a long line cut around the match.
 */
export function shownLine(raw: string, column: number, maxLineChars: number, firstOfFile: boolean): string {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (firstOfFile && line.startsWith('\uFEFF')) line = line.slice(1);
  if (line.length <= maxLineChars) return line;
  const from = Math.max(0, Math.min(column - 1 - 80, line.length - maxLineChars));
  return `${from > 0 ? '…' : ''}${line.slice(from, from + maxLineChars)}…`;
}

/**
 * 1-based column of a match: code points before it on its line (a surrogate pair is one, a lone
 * surrogate one too, as [...before] counts them, without making an array of a long line).
 */
export function columnOf(before: string): number {
  let pairs = 0;
  for (let i = 0; i < before.length - 1; i += 1) {
    const code = before.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = before.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1;
        i += 1;
      }
    }
  }
  return before.length - pairs + 1;
}
