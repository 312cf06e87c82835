import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../platform/processes/child-environment';
import { decoySecrets } from '../../test-support/decoy-secrets';
import { gitEnvironment, hardenedConfig } from './git-runner';

describe('the environment and settings git runs with', () => {
  it('is the same allow-list as every child: no decoy secret, no GIT_* of the parent, even one the user names', () => {
    const source = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      ...decoySecrets,
      GIT_DIR: '/outside/.git',
      GIT_WORK_TREE: '/outside',
      GIT_EXTERNAL_DIFF: '/outside/diff.sh',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/outside/monitor.sh'",
      GIT_CONFIG_GLOBAL: '/outside/config',
      git_askpass: '/outside/askpass.sh',
    };
    const env = childEnvironment({ ...gitEnvironment(['GIT_DIR', 'GH_TOKEN']), source, platform: 'linux' });
    // As `env` would print it: what passes from the parent, then git's own switches.
    expect(Object.entries(env).map(([name, value]) => `${name}=${value}`)).toEqual([
      'PATH=/usr/bin',
      'HOME=/home/u',
      'GH_TOKEN=decoy-gh',
      'GIT_CONFIG_NOSYSTEM=1',
      'GIT_ATTR_NOSYSTEM=1',
      'GIT_TERMINAL_PROMPT=0',
      'GIT_PAGER=cat',
      'GIT_OPTIONAL_LOCKS=0',
      'LC_ALL=C',
    ]);
    expect(childEnvironment({ ...gitEnvironment([], '/tmp/x/index'), source: {}, platform: 'linux' })).toMatchObject({
      GIT_INDEX_FILE: '/tmp/x/index',
    });
  });

  it('switches off on the command line everything a repository config could make git run', () => {
    const settings = hardenedConfig('/work/ws');
    const pairs = settings.filter((_, index) => index % 2 === 1);
    expect(settings.filter((_, index) => index % 2 === 0).every((flag) => flag === '-c')).toBe(true);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'core.fsmonitor=false',
        process.platform === 'win32' ? 'core.hooksPath=NUL' : 'core.hooksPath=/dev/null',
        'core.pager=cat',
        'diff.external=',
        'core.worktree=/work/ws',
        'commit.gpgSign=false',
      ]),
    );
  });
});
