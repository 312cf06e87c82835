import { describe, expect, it } from 'vitest';
import { decoySecrets } from '../../test-support/decoy-secrets';
import { adoptLoginShellPath, childEnvironment, looksSecret, mergePath } from './child-environment';

const base = { PATH: '/usr/bin:/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_TIME: 'de_DE.UTF-8', TERM: 'xterm' };

describe('childEnvironment', () => {
  it("puts the login shell's PATH first and keeps the inherited entries it lacks, each once", () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin')).toBe('/opt/homebrew/bin:/usr/bin:/bin');
    expect(mergePath('/a::/b', undefined)).toBe('/a:/b');
    expect(mergePath('.:bin:/usr/local/bin', '/bin')).toBe('/usr/local/bin:/bin');
    const env = childEnvironment({ pass: [], source: base, platform: 'darwin', loginPath: '/opt/homebrew/bin:/bin' });
    expect(env['PATH']).toBe('/opt/homebrew/bin:/bin:/usr/bin');
    // Windows takes its PATH from the registry at launch: nothing to merge.
    expect(childEnvironment({ pass: [], source: base, platform: 'win32', loginPath: '/x' })['PATH']).toBe(base.PATH);
  });

  it('uses the login PATH the desktop app adopted at start', () => {
    adoptLoginShellPath('/home/u/.nvm/bin');
    try {
      expect(childEnvironment({ pass: [], source: base, platform: 'linux' })['PATH']).toBe(
        '/home/u/.nvm/bin:/usr/bin:/bin',
      );
    } finally {
      adoptLoginShellPath(undefined);
    }
    expect(childEnvironment({ pass: [], source: base, platform: 'linux' })['PATH']).toBe(base.PATH);
  });

  it('passes the allow-list and nothing of twenty decoy secrets', () => {
    const env = childEnvironment({ pass: [], source: { ...base, ...decoySecrets }, platform: 'linux' });
    expect(env).toEqual(base);
    expect(Object.keys(decoySecrets)).toHaveLength(20);
  });

  it('passes a variable the user names exactly, even one that looks secret, and only that one', () => {
    const env = childEnvironment({
      pass: ['GH_TOKEN', 'DATABASE_URL'],
      source: { ...base, ...decoySecrets },
      platform: 'linux',
    });
    expect(env).toEqual({ ...base, GH_TOKEN: 'decoy-gh', DATABASE_URL: 'postgres://decoy:decoy@db/prod' });
    // Names are exact on POSIX: gh_token is another variable.
    expect(childEnvironment({ pass: ['gh_token'], source: decoySecrets, platform: 'linux' })).toEqual({});
  });

  it('refuses secret-looking names even where a pattern of the allow-list would take them', () => {
    const env = childEnvironment({
      pass: [],
      source: { LC_ALL: 'C', LC_API_KEY: 'x', LC_TOKEN: 'y' },
      platform: 'linux',
    });
    expect(env).toEqual({ LC_ALL: 'C' });
    for (const name of [
      'GEMINI_API_KEY',
      'AWS_PROFILE',
      'GH_TOKEN',
      'SSH_AUTH_SOCK',
      'MY_DB_PASSWORD',
      'X_CREDENTIALS',
    ]) {
      expect(looksSecret(name), name).toBe(true);
    }
    expect(looksSecret('PATH')).toBe(false);
  });

  it('drops what `drop` names even when passed, and sets its own values last', () => {
    const env = childEnvironment({
      pass: ['GIT_DIR'],
      source: { ...base, GIT_DIR: '/outside/.git', GIT_CONFIG_GLOBAL: '/outside/config' },
      drop: (name) => name.startsWith('GIT_'),
      set: { GIT_TERMINAL_PROMPT: '0', HOME: '/set' },
      platform: 'linux',
    });
    expect(env).toEqual({ ...base, HOME: '/set', GIT_TERMINAL_PROMPT: '0' });
  });

  it('keeps what Windows programs need, matching names without regard to case', () => {
    const source = {
      Path: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      APPDATA: 'C:\\Users\\u\\AppData\\Roaming',
      DISPLAY: ':0',
      Gh_Token: 'decoy',
    };
    const { DISPLAY: _display, ...windowsOnly } = source;
    expect(childEnvironment({ pass: ['gh_token'], source, platform: 'win32' })).toEqual(windowsOnly);
    expect(childEnvironment({ pass: [], source, platform: 'win32' })).not.toHaveProperty('Gh_Token');
  });
});
