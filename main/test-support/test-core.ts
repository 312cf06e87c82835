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
    ...options,
  });
}
