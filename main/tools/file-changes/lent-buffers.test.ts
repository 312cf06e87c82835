import { afterEach, describe, expect, it, vi } from 'vitest';
import { LentBuffers } from './lent-buffers';

afterEach(() => {
  vi.useRealTimers();
});

describe('LentBuffers', () => {
  it('lends the same memory change after change, grows it, and gives each change under way its own', async () => {
    const buffers = new LentBuffers(1 << 20, 30_000);
    const first = await buffers.lend(100_000, (buffer) => Promise.resolve(buffer));
    expect(first.length).toBeGreaterThanOrEqual(100_000);
    expect(await buffers.lend(50_000, (buffer) => Promise.resolve(buffer))).toBe(first); // big enough: the same
    const grown = await buffers.lend(200_000, (buffer) => Promise.resolve(buffer));
    expect(grown).not.toBe(first);
    expect(buffers.kept).toBe(grown); // the bigger one is kept
    // Two at once: never the same memory.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const outer = buffers.lend(1000, async (a) => {
      const inner = await buffers.lend(1000, (b) => Promise.resolve(b));
      release();
      return [a, inner];
    });
    await held;
    const [a, b] = await outer;
    expect(a).not.toBe(b);
    // Too big to keep: a buffer of its own, and the kept one stays.
    const kept = buffers.kept;
    const huge = await buffers.lend(2 << 20, (buffer) => Promise.resolve(buffer));
    expect(huge.length).toBe(2 << 20);
    expect(buffers.kept).toBe(kept);
  });

  it('lets the kept buffer go once no change asked for one for a while', async () => {
    vi.useFakeTimers();
    const buffers = new LentBuffers(1 << 20, 30_000);
    await buffers.lend(1000, () => Promise.resolve());
    vi.advanceTimersByTime(29_000);
    await buffers.lend(1000, () => Promise.resolve()); // used again: the idle time starts over
    vi.advanceTimersByTime(29_000);
    expect(buffers.kept).toBeDefined();
    vi.advanceTimersByTime(1_000);
    expect(buffers.kept).toBeUndefined();
  });
});
