/**
 * Splits Markdown into top-level blocks so a streaming reply re-renders only its last block: every
 * earlier block's text no longer changes, and its rendered element is memoized. Splits happen only
 * at blank lines outside fenced code, before a line that starts at column 0 (an indented line may
 * continue a list item or be indented code, which only make sense with what precedes them).
 */
export function splitMarkdownBlocks(markdown: string): string[] {
  // Reference-style links and footnotes pair a use with a definition anywhere in the text: keep it whole.
  if (/^ {0,3}\[[^\]\n]+\]:/m.test(markdown)) return [markdown];
  const lines = markdown.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let sawBlank = false;

  for (const line of lines) {
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (sawBlank && current.length > 0 && line.trim() !== '' && !/^\s/.test(line)) {
        blocks.push(current.join('\n'));
        current = [];
      }
      if (line.trim() === '') sawBlank = true;
      else sawBlank = false;
      if (fenceMatch?.[1] !== undefined) {
        const marker = fenceMatch[1];
        fence = { char: marker[0] ?? '`', length: marker.length };
      }
    } else if (fenceMatch?.[1] !== undefined) {
      const marker = fenceMatch[1];
      // A closing fence: the same character, at least as long, nothing after it but spaces.
      if (marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker) fence = null;
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
