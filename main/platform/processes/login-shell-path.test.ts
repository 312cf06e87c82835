import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginShellMarker, loginShellScript, parseLoginShellPath, readLoginShellPath } from './login-shell-path';

const marked = (env: string) => `${loginShellMarker}${env}${loginShellMarker}`;

describe('parseLoginShellPath', () => {
  it('takes PATH from between the markers, whatever the profile printed around them', () => {
    const output = `Welcome to zsh!\nPATH=/decoy/before\n${marked('HOME=/home/u\nPATH=/opt/homebrew/bin:/usr/bin\nTERM=dumb\n')}% `;
    expect(parseLoginShellPath(output)).toBe('/opt/homebrew/bin:/usr/bin');
  });

  it('answers nothing when the shell stopped before the end marker or printed no PATH', () => {
    expect(parseLoginShellPath(`${loginShellMarker}PATH=/usr/bin\n`)).toBeUndefined();
    expect(parseLoginShellPath(marked('HOME=/home/u\n'))).toBeUndefined();
    expect(parseLoginShellPath(marked('PATH=\n'))).toBeUndefined();
    expect(parseLoginShellPath('')).toBeUndefined();
  });

  it('does not take a variable that merely ends in PATH', () => {
    expect(parseLoginShellPath(marked('MANPATH=/usr/share/man\nPATH=/bin\n'))).toBe('/bin');
  });
});

describe.skipIf(process.platform === 'win32')('readLoginShellPath', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'familiar-login-shell-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A stand-in for the user's shell: `$1` is -ilc, `$2` the script, as a real shell receives them. */
  async function fakeShell(body: string): Promise<string> {
    const file = join(dir, 'shell');
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it('runs the script with -ilc and reads the PATH it prints, past a chatty profile', async () => {
    const shell = await fakeShell(
      `echo "$1" > "${dir}/args"; echo 'Last login: today'; PATH=/login/bin:/usr/bin:/bin; export PATH; exec /bin/sh -c "$2"`,
    );
    expect(await readLoginShellPath({ shell })).toEqual({ ok: true, value: '/login/bin:/usr/bin:/bin' });
    expect((await readFile(join(dir, 'args'), 'utf8')).trim()).toBe('-ilc');
  });

  it('gives up after the timeout and kills the shell, whose sleep would otherwise go on', async () => {
    const shell = await fakeShell(`echo $$ > "${dir}/pid"; exec sleep 30`);
    const result = await readLoginShellPath({ shell, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    const pid = Number(await readFile(join(dir, 'pid'), 'utf8'));
    // SIGKILL is sent at the timeout; the process is gone once Node has reaped it.
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(), { timeout: 5000 });
  });

  it('says so when the shell cannot start or prints no PATH', async () => {
    expect(await readLoginShellPath({ shell: join(dir, 'no-such-shell') })).toMatchObject({
      ok: false,
      error: { code: 'command_not_found' },
    });
    const silent = await fakeShell('exit 0');
    expect(await readLoginShellPath({ shell: silent })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('works with a real /bin/sh', async () => {
    const result = await readLoginShellPath({ shell: '/bin/sh' });
    expect(result.ok && result.value.includes('/')).toBe(true);
    expect(loginShellScript).toContain('env');
  });
});
