import type { FileOutputProcess, OutputProcess } from '../processes/output-process';

/**
 * How a ripgrep run ended: its exit code (null when it could not start: the caller falls back
 * rather than failing, unless the search was stopped) and the first `maxStderr` characters (4 KB
 * unless asked) of what it said on stderr (the file-list mode runs rg with --no-messages, so
 * anything there is bwrap's or a real failure; the walk mode reads rg's own messages: ripgrep-walk.ts). Attaches its
 * listeners at once: call it before the first await after the start.
 */
export function ripgrepExit(
  child: OutputProcess | FileOutputProcess,
  signal: AbortSignal,
  maxStderr = 4096,
): Promise<{ readonly exitCode: number | null; readonly stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < maxStderr) stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => (signal.aborted ? reject(error) : resolve({ exitCode: null, stderr })));
    child.on('close', (code) => resolve({ exitCode: code, stderr }));
  });
}
