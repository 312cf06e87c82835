import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStderrLogger } from '../platform/logging/logger';

const createCore = vi.fn<(options: Record<string, unknown>) => Promise<unknown>>();
vi.mock('../core/create-core', () => ({ createCore: (options: Record<string, unknown>) => createCore(options) }));
const { createCommandLineCore } = await import('./command-line');

beforeEach(() => {
  createCore.mockReset();
  createCore.mockResolvedValue({});
});

describe('createCommandLineCore', () => {
  it('makes the browser-mode core on the flags, resolved, and collects the heap once its start is over', async () => {
    const logger = createStderrLogger('test', () => undefined);
    await createCommandLineCore({ home: 'some-home', workspace: 'some-workspace' }, { logger });
    const options = createCore.mock.calls[0]![0];
    expect(options).toMatchObject({
      home: resolve('some-home'),
      workspace: resolve('some-workspace'),
      mode: 'browser',
      collectAfterStart: true,
      logger,
    });
  });
});
