import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVERY_NEWLINE, newlineScanner } from './newline-scan';
import { newlineScanWasm } from './newline-scan-wasm';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** The n-th newline at or after `from`, by the plainest loop there is. */
function reference(bytes: Uint8Array, from: number, n: number): { at: number; seen: number } {
  let seen = 0;
  for (let i = from; i < bytes.length; i += 1) {
    if (bytes[i] !== 0x0a) continue;
    seen += 1;
    if (seen === n) return { at: i, seen };
  }
  return { at: -1, seen };
}

describe('newline scan', () => {
  it('embeds the bytes newline-scan.wat compiles to (UPDATE_WASM=1 writes them)', async () => {
    const wabt = await (createRequire(import.meta.url)('wabt') as () => Promise<WabtModule>)();
    const source = readFileSync(here('newline-scan.wat'), 'utf8');
    const module = wabt.parseWat('newline-scan.wat', source, { simd: true });
    const compiled = Buffer.from(module.toBinary({}).buffer).toString('base64');
    module.destroy();
    if (process.env['UPDATE_WASM'] === '1') {
      const generated = readFileSync(here('newline-scan-wasm.ts'), 'utf8').replace(
        /'[A-Za-z0-9+/=]*'/,
        `'${compiled}'`,
      );
      writeFileSync(here('newline-scan-wasm.ts'), generated);
      return;
    }
    expect(newlineScanWasm).toBe(compiled);
  });

  it('finds the n-th newline and counts the rest as a plain loop does, in its memory and outside it', () => {
    const chunk = fc.array(fc.constantFrom(0x0a, 0x0a, 0x41, 0x0d, 0xff, 0x00), { maxLength: 300, size: 'max' });
    fc.assert(
      fc.property(chunk, fc.nat(), fc.integer({ min: 1, max: 40 }), fc.boolean(), (bytes, fromSeed, n, every) => {
        const from = bytes.length === 0 ? 0 : fromSeed % (bytes.length + 1);
        const want = every ? EVERY_NEWLINE : n;
        const expected = reference(Uint8Array.from(bytes), from, want);
        // In the scanner's memory (WebAssembly), at an odd offset in it, and a buffer of its own (indexOf).
        const scanner = newlineScanner();
        const [first, second] = scanner.buffers(bytes.length + 3);
        for (const chunk of [
          first.subarray(0, bytes.length),
          second.subarray(3, 3 + bytes.length),
          Buffer.from(bytes),
        ]) {
          chunk.set(bytes);
          expect({ at: scanner.nth(chunk, from, want), seen: scanner.seen }).toEqual(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('counts the newlines of a range as a plain loop does, in a buffer of its memory and outside it', () => {
    const chunk = fc.array(fc.constantFrom(0x0a, 0x0a, 0x41, 0x0d, 0xff, 0x00), { maxLength: 300, size: 'max' });
    fc.assert(
      fc.property(chunk, fc.nat(), fc.nat(), (bytes, a, b) => {
        const bound = (seed: number) => (bytes.length === 0 ? 0 : seed % (bytes.length + 1));
        const [from, to] = [bound(a), bound(b)];
        const expected = bytes.slice(from, Math.max(from, to)).filter((byte) => byte === 0x0a).length;
        const scanner = newlineScanner();
        const own = scanner.buffer(bytes.length + 5);
        // The whole memory is the scanner's: a count stops at `to`, not at the buffer's end.
        own.fill(0x0a);
        for (const buffer of [own.subarray(5, 5 + bytes.length), Buffer.from(bytes)]) {
          buffer.set(bytes);
          expect(scanner.count(buffer, from, to)).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
    // One buffer in the scanner's memory: counted there (16 bytes at a time), not by indexOf.
    const scanner = newlineScanner();
    const buffer = scanner.buffer(1 << 16);
    // Its memory: the module's own page and the one grown for it (a Buffer's own would be 64 KB).
    expect(buffer.buffer.byteLength).toBe(2 << 16);
    buffer.fill(0x0a);
    expect(scanner.count(buffer, 16, 1 << 16)).toBe((1 << 16) - 16);
    // Grown in place: the bytes kept, the view before detached, the new one counted there too.
    const grown = scanner.grow(4 << 16)!;
    expect(buffer.length).toBe(0);
    expect(grown.buffer.byteLength).toBe(4 << 16);
    grown.fill(0x41, 1 << 16);
    expect(scanner.count(grown, 0, 4 << 16)).toBe(1 << 16);
    expect(newlineScanner(false).grow(64)).toBeUndefined();
  });

  it("counts a range's UTF-8 characters and astral ones as a plain loop does, in its memory only", () => {
    const bytes = fc.array(fc.constantFrom(0x41, 0x0a, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xef, 0xf0, 0xf4, 0xff), {
      maxLength: 300,
      size: 'max',
    });
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (chunk, a, b) => {
        const bound = (seed: number) => (chunk.length === 0 ? 0 : seed % (chunk.length + 1));
        const [from, to] = [Math.min(bound(a), bound(b)), Math.max(bound(a), bound(b))];
        const range = chunk.slice(from, to);
        const expected = {
          codePoints: range.filter((byte) => (byte & 0xc0) !== 0x80).length,
          astral: range.filter((byte) => byte >= 0xf0).length,
        };
        const scanner = newlineScanner();
        const own = scanner.buffer(chunk.length + 7).subarray(7);
        own.set(chunk);
        expect(scanner.utf8(own, from, to)).toEqual(to > from ? expected : undefined);
        expect(scanner.utf8(Buffer.from(chunk), from, to)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('scans its own memory with WebAssembly where it can, and without it reads into plain buffers', () => {
    const wasm = newlineScanner();
    const [buffer] = wasm.buffers(1 << 20);
    // Both buffers in one WebAssembly memory (a plain Buffer of 1 MB has an ArrayBuffer of its own).
    expect(buffer.buffer.byteLength).toBeGreaterThanOrEqual(2 << 20);
    buffer.fill(0x0a);
    expect(wasm.nth(buffer, 0, EVERY_NEWLINE)).toBe(-1);
    expect(wasm.seen).toBe(1 << 20);
    const plain = newlineScanner(false);
    const [own] = plain.buffers(64);
    own.fill(0x0a);
    expect(plain.nth(own, 10, 5)).toBe(14);
    expect(() => plain.nth(own, 0, 0)).toThrow(RangeError);
  });
});

interface WabtModule {
  parseWat(
    name: string,
    source: string,
    features: { simd: boolean },
  ): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}
