import { describe, expect, it } from 'vitest';
import { ForegroundGate } from './foreground-gate';

describe('the foreground gate', () => {
  it('lets background work go on at once while no call runs, holds it while one does', async () => {
    const gate = new ForegroundGate();
    expect(gate.idle()).toBeUndefined();
    const first = gate.enter();
    const second = gate.enter();
    let resumed = false;
    const held = gate.idle()!.then(() => (resumed = true));
    expect(gate.waiting).toBe(1);
    first();
    first(); // a second release of the same call changes nothing
    await Promise.resolve();
    expect(resumed).toBe(false);
    expect(gate.busy).toBe(true);
    second();
    await held;
    expect(resumed).toBe(true);
    expect(gate.busy).toBe(false);
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
});
