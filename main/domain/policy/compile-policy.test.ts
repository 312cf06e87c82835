import picomatch from 'picomatch';
import { describe, expect, it, vi } from 'vitest';
import { defaultPolicy } from '../../../shared/policy';
import { compilePolicy, decide } from './decide';

// picomatch itself, counted: compilePolicy must compile each rule's glob once, and decide reuse it.
vi.mock('picomatch', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof picomatch }>()).default;
  return { default: vi.fn(real) };
});

describe('compilePolicy', () => {
  it('compiles every glob of the policy once, so that deciding compiles none', () => {
    const policy = defaultPolicy();
    const globs = policy.rules.filter((rule) => rule.pattern !== '**').length;
    expect(globs).toBeGreaterThan(0);
    compilePolicy(policy);
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globs);
    // Deciding, for any operation and path, reuses them.
    expect(decide(policy, 'read', 'src/a.ts', true).decision).toBe('allow');
    expect(decide(policy, 'write', 'MEMORY.md', false).memoryOff).toBe(true);
    compilePolicy(policy);
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globs);
  });
});
