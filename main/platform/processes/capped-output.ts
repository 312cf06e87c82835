/**
 * Keeps the first and last `limit / 2` bytes of a stream: a command's output can be gigabytes, the
 * model needs the start (what ran) and the end (how it failed), and memory must stay bounded.
 */
export class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly limit: number) {}

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.limit / 2) - this.headBytes;
    if (headRoom > 0) {
      const taken = chunk.subarray(0, headRoom);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const keep = Math.floor(this.limit / 2);
    // Drop whole chunks from the front while the rest still covers the tail we keep.
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= keep) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  /** Every byte, or undefined once some were cut (binary output must be whole or not at all). */
  bytes(): Buffer | undefined {
    const all = Buffer.concat([...this.head, ...this.tail]);
    return all.length === this.total ? all : undefined;
  }

  /** The text, with a marker saying how much was cut from the middle (never a silent cut). */
  text(): { readonly text: string; readonly truncated: boolean } {
    const head = Buffer.concat(this.head);
    const tailAll = Buffer.concat(this.tail);
    if (head.length + tailAll.length === this.total) {
      return { text: Buffer.concat([head, tailAll]).toString('utf8'), truncated: false };
    }
    const tail = tailAll.subarray(tailAll.length - Math.floor(this.limit / 2));
    const omitted = this.total - head.length - tail.length;
    // A cut may split a UTF-8 sequence: decoding turns the halves into U+FFFD, trimmed here.
    const headText = head.toString('utf8').replace(/\uFFFD+$/, '');
    const tailText = tail.toString('utf8').replace(/^\uFFFD+/, '');
    return {
      text: `${headText}\n[... ${omitted} bytes of output omitted (kept the first and last ${Math.floor(this.limit / 2 / 1024)} KB) ...]\n${tailText}`,
      truncated: true,
    };
  }
}
