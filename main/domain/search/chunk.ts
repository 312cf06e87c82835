import { estimateTokens } from '../../../shared/token-estimate';

export interface TextChunk {
  readonly text: string;
  /** 1-based, inclusive: where the chunk sits in the file. */
  readonly startLine: number;
  readonly endLine: number;
  /** The nearest Markdown heading above the chunk, for context in results. */
  readonly heading: string | undefined;
}

export interface ChunkOptions {
  readonly targetTokens: number;
  readonly overlapTokens: number;
  /** Never let a chunk run across a Markdown heading (workspace search: one section, one hit). */
  readonly splitAtHeadings?: boolean;
}

interface Block {
  readonly lines: string[];
  readonly startLine: number;
  readonly heading: string | undefined;
}

/** A block, or one line of a block too big for a chunk, with its text and token estimate. */
interface Piece extends Block {
  readonly text: string;
  readonly tokens: number;
}

/** Paragraphs (blank-line separated) and headings, each remembering its line and section. */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let heading: string | undefined;
  let current: { lines: string[]; startLine: number } | undefined;
  const close = () => {
    if (current !== undefined) blocks.push({ ...current, heading });
    current = undefined;
  };
  text.split(/\r?\n/).forEach((line, index) => {
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(line);
    if (headingMatch !== null) {
      close();
      heading = headingMatch[1]?.trim();
    }
    if (line.trim() === '') {
      close();
      return;
    }
    current ??= { lines: [], startLine: index + 1 };
    current.lines.push(line);
  });
  close();
  return blocks;
}

/**
 * Cuts text into chunks of about `targetTokens`, along paragraph and heading boundaries, each
 * starting with about `overlapTokens` of the previous one so a passage that straddles a cut is still
 * found whole. A single huge paragraph is cut by lines.
 */
export function chunkText(text: string, options: ChunkOptions): TextChunk[] {
  // Each piece's text and token estimate once: the loop below asks for them two or three times each
  // (a 1 MB file spent half its chunking time on the same joins and counts).
  const pieces: Piece[] = blocksOf(text).flatMap((block) => {
    const whole = block.lines.join('\n');
    const tokens = estimateTokens(whole);
    if (tokens <= options.targetTokens) return [{ ...block, text: whole, tokens }];
    return block.lines.map((line, offset) => ({
      lines: [line],
      startLine: block.startLine + offset,
      heading: block.heading,
      text: line,
      tokens: estimateTokens(line),
    }));
  });
  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < pieces.length) {
    let end = start;
    let tokens = 0;
    do {
      tokens += (pieces[end] as Piece).tokens;
      end += 1;
    } while (
      end < pieces.length &&
      !(options.splitAtHeadings === true && (pieces[end] as Piece).heading !== (pieces[start] as Piece).heading) &&
      tokens + (pieces[end] as Piece).tokens <= options.targetTokens
    );
    const taken = pieces.slice(start, end);
    const first = taken[0] as Piece;
    const last = taken.at(-1) as Piece;
    chunks.push({
      text: taken.map((piece) => piece.text).join('\n\n'),
      startLine: first.startLine,
      endLine: last.startLine + last.lines.length - 1,
      heading: first.heading,
    });
    if (end >= pieces.length) break;
    if (options.splitAtHeadings === true && (pieces[end] as Piece).heading !== first.heading) {
      start = end; // a new section starts clean, without the previous one's tail
      continue;
    }
    // Step back over the tail pieces that fit in the overlap, but always move forward.
    let back = end;
    let overlap = 0;
    while (back - 1 > start) {
      const size = (pieces[back - 1] as Piece).tokens;
      if (overlap + size > options.overlapTokens) break;
      overlap += size;
      back -= 1;
    }
    start = back;
  }
  return chunks;
}
