import type { OutputProcess } from '../processes/output-process';

/**
 * How a ripgrep run ended: its exit code (null when it could not start: the caller falls back
 * rather than failing, unless the search was stopped) and the first 4 KB of what it said on
 * stderr (rg runs with --no-messages, so anything there is bwrap's or a real failure). Attaches
 * its listeners at once: call it before the first await after the start.
 */
export function ripgrepExit(
  child: OutputProcess,
  signal: AbortSignal,
): Promise<{ readonly exitCode: number | null; readonly stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => (signal.aborted ? reject(error) : resolve({ exitCode: null, stderr })));
    child.on('close', (code) => resolve({ exitCode: code, stderr }));
  });
}
