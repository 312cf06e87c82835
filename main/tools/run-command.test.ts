import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfinementProbe } from '../platform/processes/confinement';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { runCommandTool } from './run-command';
import type { RunCommandOutput } from './run-command';

const { start } = useToolCallsKits();

async function setup() {
  const kit = await start([runCommandTool]);
  return kit;
}

const value = (result: { ok: boolean; value?: unknown }) => {
  expect(result.ok).toBe(true);
  return result.value as RunCommandOutput;
};

describe('run_command through the registry', () => {
  it('asks first, showing the exact command and directory, then runs it without a shell', async () => {
    const kit = await setup();
    const result = value(
      await kit.call('run_command', { command: `node -e "console.log(process.argv[1])" 'a b' $HOME` }),
    );
    expect(result.exit_code).toBe(0);
    // Quotes group words; $HOME is literal text without a shell.
    expect(result.stdout).toBe('a b\n');
    expect(kit.requests).toHaveLength(1);
    expect(kit.requests[0]?.operations).toEqual(['run']);
    expect(kit.requests[0]?.facts).toMatchObject({
      command: `node -e "console.log(process.argv[1])" 'a b' $HOME`,
      directory: '.',
      shell: false,
      // The approval says whether the command will run confined: as it then did.
      confined: result.confined,
    });
  });

  it('runs through the shell when asked, in a sub-folder, and reports the exit code', async () => {
    const kit = await setup();
    await kit.call('run_command', { command: 'mkdir sub', cwd: '.' });
    const result = value(
      await kit.call('run_command', { command: 'pwd; echo out | tr a-z A-Z; exit 3', cwd: 'sub', shell: true }),
    );
    expect(result.stdout).toBe(`${join(kit.kit.workspace, 'sub')}\nOUT\n`);
    expect(result.exit_code).toBe(3);
    expect(result.cwd).toBe('sub');
  });

  it('refuses a shell operator without shell, and a cwd outside the workspace', async () => {
    const kit = await setup();
    const piped = await kit.call('run_command', { command: 'ls | wc -l' });
    expect(piped).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const outside = await kit.call('run_command', { command: 'ls', cwd: '../..' });
    expect(outside).toMatchObject({ ok: false, error: { code: 'invalid_path' } });
    expect(kit.requests).toHaveLength(0);
  });

  it('refuses deny-listed commands before asking the user', async () => {
    const kit = await setup();
    for (const command of ['sudo ls', 'rm -rf /', 'ls && rm -fr ~', 'mkfs.ext4 /dev/sda1', ':(){ :|:& };:']) {
      const result = await kit.call('run_command', { command, shell: true });
      expect(result, command).toMatchObject({ ok: false, error: { code: 'command_denied' } });
    }
    expect(kit.requests).toHaveLength(0);
  });

  it('does not run a command the user rejected', async () => {
    const kit = await setup();
    kit.answer = 'reject';
    const result = await kit.call('run_command', { command: 'touch made.txt' });
    expect(result).toMatchObject({ ok: false, error: { code: 'user_rejected' } });
    await expect(readFile(join(kit.kit.workspace, 'made.txt'))).rejects.toThrow();
  });

  it('answers command_not_found for a program that does not exist', async () => {
    const kit = await setup();
    const result = await kit.call('run_command', { command: 'no-such-program-familiar --help' });
    expect(result).toMatchObject({ ok: false, error: { code: 'command_not_found' } });
  });

  /**
   * Background children append to a file in the workspace as long as they live: a confined tree has
   * pids of its own namespace, so "no child survives" is read from the file, which stops growing.
   */
  const heartbeat = (name: string) => `(while :; do echo x >> ${name}; sleep 0.05; done)`;
  const stopsGrowing = async (files: readonly string[]) => {
    const sizes = () => Promise.all(files.map(async (file) => (await readFile(file, 'utf8')).length));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = await sizes();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await sizes()).toEqual(before);
  };

  it('on timeout kills the whole process tree: no child survives', async () => {
    const kit = await setup();
    const result = value(
      await kit.call('run_command', {
        command: `${heartbeat('beat1')} & ${heartbeat('beat2')} & wait`,
        shell: true,
        timeout: 1,
      }),
    );
    expect(result.timed_out).toBe(true);
    expect(result.notice).toMatch(/killed/);
    await stopsGrowing([join(kit.kit.workspace, 'beat1'), join(kit.kit.workspace, 'beat2')]);
  });

  it('stopping the turn kills the command and its children', async () => {
    const kit = await setup();
    const stop = new AbortController();
    const beat = join(kit.kit.workspace, 'beat');
    const running = kit.call('run_command', { command: `${heartbeat('beat')} & wait`, shell: true }, stop.signal);
    await vi.waitFor(async () => expect((await readFile(beat, 'utf8')).length).toBeGreaterThan(2), { timeout: 5000 });
    stop.abort();
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
    await stopsGrowing([beat]);
  });

  it('children get the allow-listed environment plus the names the user passes, never other keys', async () => {
    const passed: string[] = [];
    const kit = await start([runCommandTool], { passEnvironment: () => passed });
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-must-not-leak');
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-must-not-leak');
    vi.stubEnv('FAMILIAR_PLAIN_VARIABLE', 'named');
    vi.stubEnv('LC_TIME', 'C');
    try {
      const before = value(await kit.call('run_command', { command: 'env', timeout: 5 }));
      expect(before.stdout).toMatch(/^PATH=/m);
      expect(before.stdout).toContain('LC_TIME=C\n');
      expect(before.stdout).not.toContain('FAMILIAR_PLAIN_VARIABLE');
      expect(before.stdout).not.toContain('OPENAI_API_KEY');
      expect(before.stdout).not.toContain('must-not-leak');
      // The setting is read at each start: no restart needed.
      passed.push('FAMILIAR_PLAIN_VARIABLE', 'ANTHROPIC_API_KEY');
      const after = value(await kit.call('run_command', { command: 'env', timeout: 5 }));
      expect(after.stdout).toContain('FAMILIAR_PLAIN_VARIABLE=named\n');
      expect(after.stdout).toContain('ANTHROPIC_API_KEY=sk-ant-must-not-leak\n');
      expect(after.stdout).not.toContain('OPENAI_API_KEY');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('caps each stream, keeping the head and the tail with a marker', async () => {
    const kit = await setup();
    const script = "for(let i=0;i<20000;i++)console.log('line '+i)";
    const result = value(await kit.call('run_command', { command: `node -e "${script}"` }));
    expect(result.stdout_truncated).toBe(true);
    expect(result.stdout.startsWith('line 0\nline 1\n')).toBe(true);
    expect(result.stdout.endsWith('line 19999\n')).toBe(true);
    expect(result.stdout).toMatch(/\[\.\.\. \d+ bytes of output omitted/);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(31 * 1024);
  });
});

describe('run_command asked while the system cannot confine it', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfinementProbe();
  });

  it('tells the person approving that it will not be confined, why and how to fix it', async () => {
    vi.stubEnv('FAMILIAR_UNCONFINED', '1');
    resetConfinementProbe();
    const kit = await setup();
    expect(value(await kit.call('run_command', { command: 'true' })).confined).toBe(false);
    expect(kit.requests[0]?.facts).toMatchObject({
      confined: false,
      confinement_reason: 'FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with.',
      confinement_fix: 'Start Familiar without FAMILIAR_UNCONFINED.',
    });
  });
});
