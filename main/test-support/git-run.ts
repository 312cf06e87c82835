import { execFileSync } from 'node:child_process';

/** For tests: run the real git in `cwd` as a fixed test author, answering its standard output. */
export const gitRun = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
