import { describe, expect, it, vi } from 'vitest';
import { ForegroundGate } from './foreground-gate';

describe('the foreground gate', () => {
  it('lets background work go on at once while no call runs, holds it while one does', async () => {
    const gate = new ForegroundGate();
    expect(gate.idle()).toBeUndefined();
    expect(gate.shared[0]).toBe(0);
    const first = gate.enter();
    const second = gate.enter();
    // What the index threads see (fs-worker-pool's hold): shut.
    expect(gate.shared[0]).toBe(1);
    let resumed = false;
    const held = gate.idle()!.then(() => (resumed = true));
    expect(gate.waiting).toBe(1);
    first();
    first(); // a second release of the same call changes nothing
    await Promise.resolve();
    expect(resumed).toBe(false);
    expect(gate.busy).toBe(true);
    expect(gate.shared[0]).toBe(1);
    second();
    await held;
    expect(resumed).toBe(true);
    expect(gate.busy).toBe(false);
    expect(gate.shared[0]).toBe(0);
    expect(gate.idle()).toBeUndefined();
  });

  it('lets background work end when the app closes, even while a call runs', async () => {
    const gate = new ForegroundGate();
    gate.enter();
    const stop = new AbortController();
    const held = gate.idle(stop.signal)!;
    stop.abort();
    await held;
    expect(gate.idle(stop.signal)).toBeUndefined();
  });

  it('opens a linger after the last call ends, and a call that comes meanwhile keeps it shut', async () => {
    vi.useFakeTimers();
    try {
      const gate = new ForegroundGate({ lingerMs: 100 });
      const first = gate.enter();
      let resumed = false;
      void gate.idle()!.then(() => (resumed = true));
      first();
      await vi.advanceTimersByTimeAsync(60);
      expect([gate.busy, resumed]).toEqual([true, false]);
      const second = gate.enter(); // a call that follows at once
      await vi.advanceTimersByTimeAsync(60);
      expect([gate.busy, resumed]).toEqual([true, false]);
      second();
      await vi.advanceTimersByTimeAsync(99);
      expect([resumed, gate.shared[0]]).toEqual([false, 1]);
      await vi.advanceTimersByTimeAsync(1);
      expect([gate.busy, resumed, gate.shared[0]]).toEqual([false, true, 0]);
      expect(gate.idle()).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('lingers no more once it has been shut for lingerCapMs in a row: background work steps between calls', async () => {
    vi.useFakeTimers();
    try {
      const gate = new ForegroundGate({ lingerMs: 100, lingerCapMs: 1000 });
      let steps = 0;
      const step = async () => {
        await gate.idle();
        steps += 1;
      };
      // Calls 50 ms apart for 2 s: the first second the linger holds the background back.
      for (let t = 0; t < 2000; t += 50) {
        const end = gate.enter();
        void step();
        await vi.advanceTimersByTimeAsync(10);
        end();
        await vi.advanceTimersByTimeAsync(40);
        if (t === 900) expect(steps).toBe(0);
      }
      expect(steps).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
