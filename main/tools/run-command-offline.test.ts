import { afterEach, describe, expect, it, vi } from 'vitest';
import { confinementMode, resetConfinementProbe } from '../platform/processes/confinement';
import { startLoopbackServer } from '../test-support/loopback-server';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolCallsKit, runShell } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';
import { runCommandTool } from './run-command';

/**
 * Issue 28, item 5: with Settings → Commands "confined commands without network run without asking"
 * on, a confined command that can reach no host without a question runs without the approval
 * question; one that could (a host allowed for the workspace or the conversation), one that would
 * run unconfined, and every command while the setting is off (the default) ask.
 */
const mode = confinementMode();
const networked = mode.confined && mode.socat !== undefined;
const tempDir = useTempDirs();
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  resetConfinementProbe();
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function setup(offlineWithoutAsking: boolean): Promise<ToolCallsKit> {
  const kit = await createToolCallsKit(tempDir, [runCommandTool], {
    confinedOfflineWithoutAsking: () => offlineWithoutAsking,
  });
  cleanup.push(() => kit.kit.dispose());
  return kit;
}

/** The command questions asked (network questions left out). */
const commandQuestions = (kit: ToolCallsKit) => kit.requests.filter((request) => request.network === undefined);

describe('confined commands without network run without asking (a setting, off by default)', () => {
  it('off: a confined command asks', async () => {
    const kit = await setup(false);
    await runShell(kit, 'true');
    expect(commandQuestions(kit)).toHaveLength(1);
  });

  it.runIf(mode.confined)(
    'on: a confined command runs unasked, until a host is allowed for the workspace',
    async () => {
      const kit = await setup(true);
      expect((await runShell(kit, 'echo hi')).stdout).toBe('hi\n');
      expect(kit.requests).toHaveLength(0);
      // A host allowed elsewhere changes nothing here.
      await kit.kit.services.rememberHost({
        host: 'example.org',
        port: 443,
        workspace: '/somewhere/else',
        local: false,
      });
      await runShell(kit, 'true');
      expect(kit.requests).toHaveLength(0);
      await kit.kit.services.rememberHost({
        host: 'example.org',
        port: 443,
        workspace: kit.kit.env.workspaceRoot,
        local: false,
      });
      await runShell(kit, 'true');
      expect(commandQuestions(kit)).toHaveLength(1);
    },
  );

  it.runIf(networked)('on: once a host is allowed for the conversation, commands ask again', async () => {
    const kit = await setup(true);
    const server = await startLoopbackServer();
    cleanup.push(() => server.close());
    kit.networkAnswer = 'conversation';
    const output = await runShell(kit, `curl -sS http://127.0.0.1:${server.port}/x`);
    expect(output.stdout).toBe('hello from /x');
    // Only the network question: the command itself ran unasked.
    expect(kit.requests.map((request) => request.network === undefined)).toEqual([false]);
    await runShell(kit, 'true');
    expect(commandQuestions(kit)).toHaveLength(1);
  });

  it('on: a command that would run unconfined still asks', async () => {
    vi.stubEnv('FAMILIAR_UNCONFINED', '1');
    resetConfinementProbe();
    const kit = await setup(true);
    expect((await runShell(kit, 'true')).confined).toBe(false);
    expect(commandQuestions(kit)).toHaveLength(1);
  });
});
