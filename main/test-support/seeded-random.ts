/**
 * Mulberry32: a small, fast generator whose numbers in [0, 1) are the same for the same seed on
 * every run and machine. For what must be reproducible, not secret: the fuzz test's cases, the
 * benchmark's generated corpus (which is cached, so its text must not change between runs).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
