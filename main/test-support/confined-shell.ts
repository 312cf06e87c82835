import type { ConfinementRules } from '../platform/processes/launch-types';
import { runProcess } from '../platform/processes/process-runner';

/**
 * For tests of the rules: runs a shell script in `cwd` under them, with only the variables named in
 * `set`; answers its output and exit (a failure to start throws).
 */
export async function runShellConfined(
  script: string,
  cwd: string,
  set: Readonly<Record<string, string>>,
  confinement: Omit<ConfinementRules, 'cwd'>,
) {
  const ran = await runProcess({
    file: script,
    args: [],
    shell: true,
    cwd,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    maxOutputBytes: 64 * 1024,
    environment: { pass: [], set },
    confinement,
  });
  if (!ran.ok) throw new Error(ran.error.message);
  return ran.value;
}
