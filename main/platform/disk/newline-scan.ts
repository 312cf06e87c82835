import { newlineScanWasm } from './newline-scan-wasm';

/** Passed as `n` to count every newline: a chunk never holds this many. */
export const EVERY_NEWLINE = 0x7fff_ffff;

const PAGE_BYTES = 65_536;

/**
 * Finds newlines in the chunks of a line scan (line-range-reader.ts). A first read of a huge file
 * scans it to the end for total_lines: Buffer.indexOf once per line cost 50-70 ms per 2M lines on top
 * of the reads, where sed takes 80 ms for the whole 200 MB file; newline-scan.wat counts them 16 bytes
 * at a time, reading and counting that file in 21-24 ms. It sees only its own memory, so the chunks
 * are read into `buffers()`; other buffers (transcoded UTF-16) and hosts without WebAssembly
 * (`--jitless`) take indexOf.
 */
export interface NewlineScanner {
  /** Two read buffers of `size` bytes (in the scanner's memory where it has one). */
  buffers(size: number): readonly [Buffer, Buffer];
  /** One read buffer of `size` bytes, the same way (instead of `buffers`: a scanner has one memory). */
  buffer(size: number): Buffer;
  /**
   * The buffer of `buffer()` made `size` bytes long in place, its bytes kept (no copy): a view of
   * the grown memory, which detaches every view taken before. Undefined without WebAssembly or
   * before `buffer()`; not for `buffers()` (the view would cover the second buffer).
   */
  grow(size: number): Buffer | undefined;
  /**
   * The index in `chunk` of the `n`-th newline (n >= 1) at or after `from`, or -1 when there are fewer;
   * `seen` then says how many there were (n when found).
   */
  nth(chunk: Buffer, from: number, n: number): number;
  readonly seen: number;
  /** How many newlines `chunk` holds in [from, to). */
  count(chunk: Buffer, from: number, to: number): number;
  /**
   * The code points of valid UTF-8 bytes [from, to) of `chunk`, and how many of them take two UTF-16
   * units, counted 16 bytes at a time; undefined when `chunk` is not in the scanner's memory.
   */
  readonly utf8: (chunk: Buffer, from: number, to: number) => Utf8Count | undefined;
}

export interface Utf8Count {
  readonly codePoints: number;
  readonly astral: number;
}

interface ScanExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly seen: { readonly value: number };
  readonly astral: { readonly value: number };
  nth(ptr: number, len: number, n: number): number;
  utf8(ptr: number, len: number): number;
}

/** The two WebAssembly calls used here (typed by hand: the Node tsconfig has no DOM lib, where they live). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

/** Compiled once; null where WebAssembly (or its SIMD) is not available. */
let compiled: object | null | undefined;

function scanModule(): object | null {
  if (compiled === undefined) {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    try {
      compiled = wasm === undefined ? null : new wasm.Module(Buffer.from(newlineScanWasm, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** indexOf, once per newline: for buffers outside the scanner's memory. */
function nthByIndexOf(chunk: Buffer, from: number, n: number): { at: number; seen: number } {
  let seen = 0;
  for (let at = from; ;) {
    const newline = chunk.indexOf(0x0a, at);
    if (newline === -1) return { at: -1, seen };
    seen += 1;
    if (seen === n) return { at: newline, seen };
    at = newline + 1;
  }
}

/**
 * A scanner with its own memory (scans running at once never share a buffer): one per line scan
 * (line-range-reader.ts), one per search thread for its life (fs-worker-jobs.ts, its read buffer
 * grown up to 16 MB by a long line).
 */
export function newlineScanner(useWasm = true): NewlineScanner {
  const module = useWasm ? scanModule() : null;
  let wasm: ScanExports | undefined;
  let seen = 0;
  /** `count` buffers of `size` bytes, one after the other in a new instance's memory. */
  const allocate = (size: number, count: number): Buffer[] => {
    if (module === null) return Array.from({ length: count }, () => Buffer.allocUnsafe(size));
    const { Instance } = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    wasm = new Instance(module).exports as ScanExports;
    wasm.memory.grow(Math.ceil((count * size) / PAGE_BYTES));
    // Taken after growing: growing replaces the memory's ArrayBuffer.
    const memory = wasm.memory.buffer;
    return Array.from({ length: count }, (_, at) => Buffer.from(memory, at * size, size));
  };
  const scanner: NewlineScanner = {
    buffers(size) {
      const [first, second] = allocate(size, 2);
      return [first!, second!];
    },
    buffer: (size) => allocate(size, 1)[0]!,
    grow(size) {
      if (wasm === undefined) return undefined;
      const have = wasm.memory.buffer.byteLength;
      if (size > have) wasm.memory.grow(Math.ceil((size - have) / PAGE_BYTES));
      return Buffer.from(wasm.memory.buffer, 0, size);
    },
    count(chunk, from, to) {
      if (to <= from) return 0;
      scanner.nth(chunk.subarray(0, to), from, EVERY_NEWLINE);
      return seen;
    },
    utf8: (chunk, from, to) => {
      if (wasm === undefined || chunk.buffer !== wasm.memory.buffer || to <= from) return undefined;
      const continuing = wasm.utf8(chunk.byteOffset + from, to - from);
      return { codePoints: to - from - continuing, astral: wasm.astral.value };
    },
    nth(chunk, from, n) {
      // The scan would never end: no 0th newline to stop at.
      if (!(n >= 1)) throw new RangeError(`nth: n must be at least 1, not ${n}`);
      if (wasm !== undefined && chunk.buffer === wasm.memory.buffer) {
        const found = wasm.nth(chunk.byteOffset + from, chunk.length - from, n);
        seen = wasm.seen.value;
        return found === -1 ? -1 : from + found;
      }
      const found = nthByIndexOf(chunk, from, n);
      seen = found.seen;
      return found.at;
    },
    get seen() {
      return seen;
    },
  };
  return scanner;
}
