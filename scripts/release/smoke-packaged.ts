// `jiti scripts/release/smoke-packaged.ts <executable> [args...]`: starts an installed Familiar with
// `--smoke-test` (under xvfb-run on Linux), prints its checks, and fails unless it exited 0 with a
// passing summary within the time allowed. The release workflow runs it on every runner.
import { spawn } from 'node:child_process';
import { judgeSmokeRun, readSmokeSummary } from './smoke-summary';

/** The app ends itself within a minute; this only catches an app that never starts at all. */
const killAfterMs = Number(process.env['FAMILIAR_SMOKE_TIMEOUT_MS'] ?? 90_000);
const [executable, ...args] = process.argv.slice(2);
if (executable === undefined) {
  console.error('usage: smoke-packaged.ts <executable> [args...]');
  process.exit(2);
}

let stdout = '';
let timedOut = false;
const child = spawn(executable, [...args, '--smoke-test'], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.on('data', (chunk: Buffer) => {
  stdout += chunk.toString();
});
const timer = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, killAfterMs);
const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
  child.once('error', reject);
  child.once('close', (code, signal) => resolve({ code, signal }));
});
clearTimeout(timer);
const verdict = judgeSmokeRun({ ...exit, timedOut }, readSmokeSummary(stdout));
for (const line of verdict.lines) console.log(line);
process.exit(verdict.passed ? 0 : 1);
