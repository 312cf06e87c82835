import { afterEach, describe, expect, it, vi } from 'vitest';
import { confinementMode, probeConfinementSoon, resetConfinementProbe } from './confinement';

describe('the confinement probe in the background', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfinementProbe();
  });

  it('finds what the synchronous probe finds, with bubblewrap on PATH or not', async () => {
    for (const path of [process.env['PATH'] ?? '', '/nonexistent']) {
      vi.stubEnv('PATH', path);
      resetConfinementProbe();
      const now = confinementMode();
      resetConfinementProbe();
      await probeConfinementSoon();
      expect(confinementMode()).toEqual(now);
    }
  });

  it('does not answer after a reset that came while it ran', async () => {
    resetConfinementProbe();
    const running = probeConfinementSoon();
    vi.stubEnv('FAMILIAR_UNCONFINED', '1');
    resetConfinementProbe();
    await running;
    const mode = confinementMode();
    expect(mode.confined).toBe(false);
    expect(mode.confined ? '' : mode.reason).toContain('FAMILIAR_UNCONFINED');
  });
});
