/**
 * What edit_file says when oldText is nowhere: the closest lines of the file (similarity ≥ 0.45, up
 * to 3, as OpenClaw does), a caret under the first difference, and a hint at the usual cause.
 */

const minSimilarity = 0.45;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i += 1) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: Map<string, number>, aSize: number, b: string): number {
  if (aSize === 0 || b.length < 2) return 0;
  let common = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < b.length - 1; i += 1) {
    const pair = b.slice(i, i + 2);
    const used = seen.get(pair) ?? 0;
    if (used < (a.get(pair) ?? 0)) {
      common += 1;
      seen.set(pair, used + 1);
    }
  }
  return (2 * common) / (aSize + b.length - 1);
}

const unescape = (text: string) =>
  text.replace(/\\(["'`\\nt])/g, (_, char: string) => (char === 'n' ? '\n' : char === 't' ? '\t' : char));

function hintFor(wanted: string, found: string): string | undefined {
  if (wanted.trim() === found.trim())
    return 'The text matches but its indentation differs: copy the leading spaces/tabs exactly as read_file shows them.';
  if (unescape(wanted).trim() === found.trim())
    return 'The escaping differs: send the text exactly as it is in the file, without extra backslashes.';
  return undefined;
}

/** The message for a no_match: closest lines with line numbers, a caret and a hint. */
export function describeNoMatch(text: string, oldText: string, display: string): string {
  const wantedLines = oldText.replaceAll('\r\n', '\n').split('\n');
  // The longest line of oldText is the most distinctive one to look for.
  const anchor = wantedLines.reduce((best, line) => (line.trim().length > best.trim().length ? line : best), '');
  const anchorTrimmed = anchor.trim();
  const grams = bigrams(anchorTrimmed);
  const size = Math.max(0, anchorTrimmed.length - 1);

  const candidates: { line: number; text: string; score: number }[] = [];
  let line = 1;
  for (let at = 0; at <= text.length; line += 1) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    const content = text.slice(at, end).replace(/\r$/, '');
    const trimmed = content.trim();
    // Cheap length filter first: Dice cannot reach the threshold when lengths differ this much.
    const shorter = Math.min(trimmed.length, anchorTrimmed.length);
    const longer = Math.max(trimmed.length, anchorTrimmed.length);
    if (longer > 0 && shorter / longer >= minSimilarity) {
      const score = similarity(grams, size, trimmed);
      if (score >= minSimilarity) candidates.push({ line, text: content, score });
    }
    if (newline === -1) break;
    at = newline + 1;
  }
  candidates.sort((a, b) => b.score - a.score || a.line - b.line);
  const best = candidates.slice(0, 3);

  const lines = [`oldText was not found in '${display}'.`];
  if (best.length === 0) {
    lines.push(
      'No line is even close to it: the file may not contain this code. Read the file again (read_file) before editing.',
    );
    return lines.join('\n');
  }
  lines.push(`The closest line${best.length > 1 ? 's' : ''} to "${anchorTrimmed.slice(0, 120)}":`);
  let hint: string | undefined;
  for (const candidate of best) {
    const shown = candidate.text.length > 200 ? `${candidate.text.slice(0, 200)}…` : candidate.text;
    const prefix = `  line ${candidate.line}: `;
    const trimmedFound = candidate.text.trimStart();
    let diff = 0;
    while (diff < trimmedFound.length && diff < anchorTrimmed.length && trimmedFound[diff] === anchorTrimmed[diff])
      diff += 1;
    const caretColumn = Math.min(candidate.text.length - trimmedFound.length + diff, shown.length);
    lines.push(`${prefix}${shown}`, `${' '.repeat(prefix.length + caretColumn)}^ first difference`);
    hint ??= hintFor(anchor, candidate.text);
  }
  if (hint !== undefined) lines.push(`Hint: ${hint}`);
  const around = best[0]!.line;
  lines.push(
    `Read the lines around ${around} again (read_file with start_line=${Math.max(1, around - 5)}, end_line=${around + 5 + wantedLines.length}) and copy oldText exactly.`,
  );
  return lines.join('\n');
}
