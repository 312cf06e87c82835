import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runChild, tableHead } from './measure';
import type { ChildRun, Timing } from './measure';

/** The tool bench's rows and the table they make (stdout) and `bench/results/latest.json`. */

export interface Row {
  readonly name: string;
  readonly ours: Timing;
  readonly reference?: { readonly name: string; readonly timing: Timing; readonly maxRssKb: number | undefined };
  /** Median of per-run ratios (ours and reference alternate), the figure judged against the target. */
  readonly ratio?: number;
  readonly target: string;
  readonly ratioLimit?: number;
  readonly absoluteLimitMs?: number;
  readonly check: string;
  readonly oursRss?: ChildRun;
}

export const mb = (kb: number | undefined) => (kb === undefined ? '—' : `${(kb / 1024).toFixed(0)} MB`);
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const lines = (text: string) => text.split('\n').filter((line) => line !== '').length;

export interface ReportOptions {
  readonly log: (line: string) => void;
  readonly runs: number;
  /** The bench's own script: each operation runs in a fresh `script --child <name>` process. */
  readonly script: string;
  readonly operationNames: readonly string[];
  readonly onlySearch: boolean;
  readonly onlyList: boolean;
}

/** Peak RSS of each operation in a fresh process, then the table; answers whether a target was missed. */
export async function report(rows: Row[], options: ReportOptions): Promise<boolean> {
  const { log, runs, script, operationNames, onlySearch, onlyList } = options;
  log('peak RSS, each operation in a fresh process...');
  const measured = operationNames.filter(
    (name) => name === 'idle' || (onlySearch ? name.startsWith('search') : onlyList ? name.startsWith('list') : true),
  );
  const rss = Object.fromEntries(measured.map((name) => [name, runChild(script, name)]));
  const rssFor = (name: string): ChildRun | undefined =>
    name.startsWith('search_in_code: rare')
      ? rss['search-rare']
      : name.startsWith('search_in_code: common')
        ? rss['search-common']
        : name.startsWith('list_files')
          ? rss['list-recursive']
          : name.startsWith('read_file last')
            ? rss['tail-read-200mb']
            : name.startsWith('read_file')
              ? rss['range-read-200mb']
              : name.startsWith('edit_file')
                ? rss['edit-5mb']
                : undefined;

  const table = [
    ...tableHead([
      'operation',
      'Familiar (median)',
      'reference (median)',
      'ratio (paired median)',
      'target',
      'peak RSS Familiar / reference',
      'check',
    ]),
  ];
  let failed = false;
  for (const row of rows) {
    const pass =
      (row.ratioLimit === undefined || (row.ratio !== undefined && row.ratio <= row.ratioLimit)) &&
      (row.absoluteLimitMs === undefined || row.ours.medianMs < row.absoluteLimitMs);
    if (row.target !== 'context' && !pass) failed = true;
    const oursRss = rssFor(row.name);
    table.push(
      `| ${row.name} | ${ms(row.ours.medianMs)} | ${row.reference === undefined ? '—' : `${row.reference.name} ${ms(row.reference.timing.medianMs)}`} | ` +
        `${row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}×`} | ${row.target}${row.target === 'context' ? '' : pass ? ' ✓' : ' ✗'} | ` +
        `${oursRss === undefined || row.name.startsWith('  ') ? '—' : mb(oursRss.maxRssKb)} / ${mb(row.reference?.maxRssKb)} | ${row.check} |`,
    );
  }
  const cpu = (name: string) => (rss[name] === undefined ? '—' : `${rss[name].cpuMs.toFixed(0)} ms`);
  table.push(
    '',
    `CPU time of one call (all threads, fresh process): search rare ${cpu('search-rare')}, search common ${cpu('search-common')}, ` +
      `list ${cpu('list-recursive')} (over MCP ${cpu('list-recursive-mcp')}), range read ${cpu('range-read-200mb')}, two edits ${cpu('edit-5mb')}.`,
    `Peak RSS of a fresh process that only loads the tools: ${mb(rss['idle']!.maxRssKb)}. ` +
      `Line range from the 200 MB log: ${mb(rss['range-read-200mb']?.maxRssKb)}; from the 5 MB file: ${mb(rss['range-read-5mb']?.maxRssKb)} ` +
      '(memory does not grow with the file).',
  );
  process.stdout.write(`${table.join('\n')}\n`);
  await mkdir(join(process.cwd(), 'bench', 'results'), { recursive: true });
  await writeFile(
    join(process.cwd(), 'bench', 'results', 'latest.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, rows, rss }, null, 2)}\n`,
  );
  return failed;
}
