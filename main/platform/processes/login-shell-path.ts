import { homedir } from 'node:os';
import { messageOf } from '../../../shared/errors';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { launchFor } from './confined-launch';
import { killTree, spawnLaunch } from './spawn-launch';
import type { ChildProcess } from './spawn-launch';

/**
 * A desktop app started from the Dock, Finder or a .desktop file gets the GUI session's bare PATH
 * (/usr/bin:/bin:/usr/sbin:/sbin on macOS): no Homebrew, nvm, pyenv or ~/.local/bin, so `npm test`
 * or git hooks fail in Familiar while they work in the user's terminal. The user's login shell knows
 * the real PATH: ask it once, as VS Code does, and give it to commands and git.
 */

/** Profile scripts print banners and prompts; only what lies between two markers is the answer. */
export const loginShellMarker = '__FAMILIAR_LOGIN_ENV__';

/** A slow profile (nvm is often seconds) must not hold the app's start for long. */
export const loginShellTimeoutMs = 5000;

/** Understood alike by sh, bash, zsh and fish: `env` is a program, not shell syntax. */
export const loginShellScript = `printf '%s' '${loginShellMarker}'; env; printf '%s' '${loginShellMarker}'`;

/** PATH from the `env` output between the markers; undefined when the shell did not get that far. */
export function parseLoginShellPath(output: string): string | undefined {
  const start = output.indexOf(loginShellMarker);
  const end = output.lastIndexOf(loginShellMarker);
  if (start === -1 || end <= start) return undefined;
  const env = output.slice(start + loginShellMarker.length, end);
  for (const line of env.split('\n')) {
    if (line.startsWith('PATH=')) {
      const path = line.slice('PATH='.length).trim();
      return path === '' ? undefined : path;
    }
  }
  return undefined;
}

export interface LoginShellOptions {
  /** The user's shell ($SHELL). */
  readonly shell: string;
  readonly timeoutMs?: number;
}

/**
 * Runs `$SHELL -ilc` (interactive and login: .zshrc as well as .zprofile, where nvm and Homebrew
 * put themselves) with the allow-listed environment, no stdin and a timeout that kills its whole
 * process group. Resolves to the PATH, or an error value: the caller keeps the PATH it has.
 */
export function readLoginShellPath(options: LoginShellOptions): Promise<Result<string>> {
  const timeoutMs = options.timeoutMs ?? loginShellTimeoutMs;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const couldNotStart = (error: unknown): Result<string> =>
      err('command_not_found', `${options.shell} could not start: ${messageOf(error)}`);
    let settled = false;
    const finish = (result: Result<string>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // The user's own shell with the user's rights (no rules: it reads their profile, nothing of a
    // workspace), started in their home as a login shell would be, in its own group so the
    // timeout's kill reaches what the profile started.
    let child: ChildProcess;
    try {
      const launch = launchFor({
        file: options.shell,
        args: ['-ilc', loginShellScript],
        shell: false,
        cwd: homedir(),
        environment: { pass: [] },
      });
      child = spawnLaunch(launch, { stdio: ['ignore', 'pipe', 'ignore'], ownGroup: true });
    } catch (error) {
      // A start refused at once (no such folder, too many processes): the caller keeps its PATH.
      resolve(couldNotStart(error));
      return;
    }
    const timer = setTimeout(() => {
      killTree(child, 'SIGKILL');
      finish(err('timeout', `${options.shell} did not print its PATH within ${timeoutMs} ms.`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk)); // a pipe (stdio above)
    child.on('error', (error) => finish(couldNotStart(error)));
    child.on('close', () => {
      const path = parseLoginShellPath(Buffer.concat(chunks).toString('utf8'));
      finish(path === undefined ? err('not_found', `${options.shell} printed no PATH.`) : ok(path));
    });
  });
}
