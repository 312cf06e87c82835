/** Files up to this size are read into a lent buffer; bigger ones get their own. */
const MAX_LENT_BYTES = 16 * 1024 * 1024;
/** A lent buffer nobody asked for this long is let go (a companion idles most of the day). */
const IDLE_MS = 30_000;

/**
 * Buffers lent to one change at a time: the file a change replaces is read into one (commitFile),
 * instead of a new buffer per change. A buffer outside V8's heap still counts towards when V8
 * collects: over MCP, edit_file on a 5 MB file read it twice per call (the file, then its read-back),
 * and every other call paid a full collection of the app's heap, 25-30 ms of a 50 ms call (the other
 * half: 25 ms). Lent, the file is read into the same memory call after call.
 *
 * What is lent is valid only inside `lend`'s callback: it is overwritten by the next change.
 */
export class LentBuffers {
  #free: Buffer | undefined;
  #lent = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxBytes = MAX_LENT_BYTES,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Runs `use` with a buffer of at least `size` bytes, kept for the next change once `use` is done. */
  async lend<T>(size: number, use: (buffer: Buffer) => Promise<T>): Promise<T> {
    if (size > this.maxBytes) return use(Buffer.allocUnsafe(size));
    // Changes of different files run at once: each has a buffer of its own while they do.
    const free = this.#free;
    const buffer = free !== undefined && free.length >= size ? free : Buffer.allocUnsafe(Math.max(size, 64 * 1024));
    if (buffer === free) this.#free = undefined;
    this.#lent += 1;
    clearTimeout(this.#timer);
    try {
      return await use(buffer);
    } finally {
      this.#lent -= 1;
      if (this.#free === undefined || this.#free.length < buffer.length) this.#free = buffer;
      if (this.#lent === 0) {
        this.#timer = setTimeout(() => {
          this.#free = undefined;
        }, this.idleMs);
        this.#timer.unref();
      }
    }
  }

  /** The buffer kept for the next change, if any (tests). */
  get kept(): Buffer | undefined {
    return this.#free;
  }
}
