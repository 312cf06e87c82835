import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createCore } from '../core/create-core';
import type { Core, CoreOptions } from '../core/create-core';
import { createStderrLogger } from '../platform/logging/logger';

/** What a test core may set; the mode, version and (unless given) the quiet logger are the same for all. */
export type TestCoreOptions = Omit<CoreOptions, 'mode' | 'version' | 'logger'> & Partial<Pick<CoreOptions, 'logger'>>;

/** A real core in browser mode, as the contract tests drive it; the caller disposes it. */
export function createTestCore(options: TestCoreOptions): Promise<Core> {
  return createCore({
    mode: 'browser',
    version: '0.0.0-test',
    logger: createStderrLogger('test', () => undefined),
    // Never the real ~/.agents/skills: a test core sees only the skills its test wrote.
    userSkillsDir: join(options.home, 'user-skills'),
    warmSearchThreads: false,
    ...options,
  });
}

/** Test cores for one test file: each is disposed after the test that made it. */
export function useTestCores(): (options: TestCoreOptions) => Promise<Core> {
  const made: Core[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((core) => core.dispose('test over')));
  });
  return async (options) => {
    const core = await createTestCore(options);
    made.push(core);
    return core;
  };
}
