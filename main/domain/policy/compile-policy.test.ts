import { join } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it, vi } from 'vitest';
import { defaultPolicy } from '../../../shared/policy';
import { compilePolicy, decide } from './decide';
import { openPolicyStore } from './policy-store';
import { useTempDirs } from '../../test-support/temp-dir';
import { createStderrLogger } from '../../platform/logging/logger';

// picomatch itself, counted: compilePolicy must compile each rule's glob once, and decide reuse it.
vi.mock('picomatch', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof picomatch }>()).default;
  return { default: vi.fn(real) };
});

const tempDir = useTempDirs();
const quiet = createStderrLogger('test', () => undefined);
/** The globs a policy's rules compile to (the catch-all '**' needs none). */
const globsOf = (policy: ReturnType<typeof defaultPolicy>) =>
  policy.rules.filter((rule) => rule.pattern !== '**').length;

describe('compilePolicy', () => {
  it('compiles every glob of the policy once, so that deciding compiles none', () => {
    vi.mocked(picomatch).mockClear();
    const policy = defaultPolicy();
    const globs = globsOf(policy);
    expect(globs).toBeGreaterThan(0);
    compilePolicy(policy);
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globs);
    // Deciding, for any operation and path, reuses them.
    expect(decide(policy, 'read', 'src/a.ts', true).decision).toBe('allow');
    expect(decide(policy, 'write', 'MEMORY.md', false).memoryOff).toBe(true);
    compilePolicy(policy);
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globs);
  });

  it('is run by the policy store as a policy loads and as it changes', async () => {
    vi.mocked(picomatch).mockClear();
    const store = await openPolicyStore(join(await tempDir(), 'policy.json'), quiet);
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globsOf(store.get()));
    await store.reset();
    expect(vi.mocked(picomatch)).toHaveBeenCalledTimes(globsOf(store.get()) * 2);
  });
});
