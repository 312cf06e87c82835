/**
 * The lines of a byte stream that begin with `prefix`, each handed over whole; every other line is
 * passed over as it streams, never gathered. ripgrep's JSON carries each matching line whole, and a
 * minified bundle's line can be megabytes: gathering every line until its end, to look at its
 * first bytes, copied a long line again with each chunk (6 s for 147 MB of output on an npm tree).
 */
export function prefixedLines(prefix: Buffer, onLine: (line: string) => void): (chunk: Buffer) => void {
  /** The current line's first bytes, until there are enough to compare with `prefix`. */
  let head: Buffer = Buffer.alloc(0);
  /** The current line's pieces once it is known to begin with `prefix`. */
  let kept: Buffer[] | undefined;
  const endLine = () => {
    if (kept !== undefined) onLine(Buffer.concat(kept).toString('utf8'));
    head = Buffer.alloc(0);
    kept = undefined;
  };
  return (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline;
      if (kept !== undefined) {
        kept.push(chunk.subarray(at, end));
      } else if (head.length < prefix.length) {
        // Still deciding; a full head that differs leaves the rest of its line passed over.
        const take = Math.min(prefix.length - head.length, end - at);
        head = Buffer.concat([head, chunk.subarray(at, at + take)]);
        if (head.equals(prefix)) kept = [head, chunk.subarray(at + take, end)];
      }
      if (newline === -1) return; // the line goes on in the next chunk
      endLine();
      at = newline + 1;
    }
  };
}
