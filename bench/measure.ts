import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Timing {
  readonly medianMs: number;
  readonly minMs: number;
  readonly runs: readonly number[];
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const summarize = (runs: readonly number[]): Timing => ({
  medianMs: median(runs),
  minMs: Math.min(...runs),
  runs,
});

/** One warm-up (page cache, JIT, worker threads), then `runs` timed runs. */
export async function timeRuns(runs: number, work: () => Promise<void> | void): Promise<Timing> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return summarize(times);
}

export interface External {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** Runs a reference command like a shell would (stdout to a pipe); answers its time and output. */
export function runOnce(external: External): { ms: number; stdout: string } {
  const start = performance.now();
  const child = spawnSync(external.command, external.args, { cwd: external.cwd, maxBuffer: 1 << 30, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (child.error !== undefined) throw child.error;
  if (child.status !== 0 && child.status !== 1)
    throw new Error(`${external.command} exited with ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout };
}

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Peak resident set of a command in KB (GNU time), when /usr/bin/time exists. */
export function peakRss(external: External): number | undefined {
  if (gnuTime === undefined) return undefined;
  const timed = spawnSync(gnuTime, ['-f', '%M', external.command, ...external.args], {
    cwd: external.cwd,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const last = timed.stderr.trim().split('\n').at(-1);
  return last === undefined ? undefined : Number(last);
}

export interface Paired {
  readonly ours: Timing;
  readonly reference: Timing;
  /** Median of the per-pair ratios: robust when other processes load the machine unevenly. */
  readonly pairedRatio: number;
}

export interface Comparison extends Paired {
  readonly stdout: string;
}

/**
 * Ours and the reference alternate run by run (after one warm-up each), so a burst of load from
 * other processes hits both sides alike. `settleMs`: a pause after each call of ours, as a client
 * thinking between calls leaves one, so what the server does once it has answered (the sandbox it
 * makes ahead for its next ripgrep) lands on neither side's timing.
 */
export async function compareCalls(
  runs: number,
  ours: () => Promise<void>,
  reference: () => unknown,
  settleMs = 0,
): Promise<Paired> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));
  await ours();
  await settle();
  await reference();
  const oursTimes: number[] = [];
  const referenceTimes: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const referenceStart = performance.now();
    await reference();
    referenceTimes.push(performance.now() - referenceStart);
    const start = performance.now();
    await ours();
    oursTimes.push(performance.now() - start);
    await settle();
  }
  return paired(oursTimes, referenceTimes);
}

/** Times taken in pairs (ours[i] beside reference[i]): both summarized, and the median of their ratios. */
export function paired(ours: readonly number[], reference: readonly number[]): Paired {
  const ratios = ours.map((time, i) => time / reference[i]!);
  return { ours: summarize(ours), reference: summarize(reference), pairedRatio: summarize(ratios).medianMs };
}

/** compareCalls against a spawned command, timed by runOnce; answers the command's output too. */
export async function compare(runs: number, ours: () => Promise<void>, reference: External): Promise<Comparison> {
  const { stdout } = runOnce(reference);
  return { ...(await compareCalls(runs, ours, () => runOnce(reference))), stdout };
}

export interface ChildRun {
  readonly ms: number;
  readonly maxRssKb: number;
  readonly cpuMs: number;
}

/** Runs one operation in a fresh node process and reads its peak RSS (workers included). */
export function runChild(script: string, operation: string): ChildRun {
  const child = spawnSync(process.execPath, [script, '--child', operation], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (child.status !== 0) throw new Error(`child ${operation} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildRun;
}

/**
 * The Node a bench runs on, said with its figures: the app runs on Electron 45's Node 24 (package.json
 * engines ask for 22.13 or later), and an older Node (this machine's own is 20) walks and reads
 * measurably slower, so its figures are not the product's.
 */
export function runtimeLine(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > 22 || (major === 22 && minor >= 13);
  return supported
    ? `node ${process.version}`
    : `node ${process.version}: older than the app's runtime (Node 24; engines >= 22.13), so these figures understate it`;
}

/** The first two lines of a Markdown table: the column names, and a separator (`right` aligns a column to the right). */
export function tableHead(columns: readonly (string | { readonly right: string })[]): string[] {
  const names = columns.map((column) => (typeof column === 'string' ? column : column.right));
  const rules = columns.map((column) => (typeof column === 'string' ? '---' : '---:'));
  return [`| ${names.join(' | ')} |`, `| ${rules.join(' | ')} |`];
}
