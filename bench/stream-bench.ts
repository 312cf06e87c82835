import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableHead } from './measure';
import { runStreamOverheadBench } from './stream-overhead';

/** The loop's ratio to reading the raw SSE stream must stay under this (issue 5). */
const ratioLimit = 1.1;

/**
 * The LLM stream part of `npm run bench`: runs bench/stream-overhead.ts, prints its table and writes
 * bench/results/stream-overhead.json. Answers whether a target was missed.
 */
export async function runStreamBench(log: (line: string) => void): Promise<boolean> {
  log('LLM stream overhead (scripted server, 50k tokens)...');
  const report = await runStreamOverheadBench(log);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const pass = report.ratio < ratioLimit;
  const table = [
    ...tableHead(['stream measurement', 'Familiar loop', 'reference', 'ratio', 'target']),
    `| ${report.tokens} tokens streamed as fast as possible | ${ms(report.loopMs)} | raw SSE ${ms(report.rawMs)} | ` +
      `${report.ratio.toFixed(2)}× | < ${ratioLimit}× raw ${pass ? '✓' : '✗'} |`,
    `|   same, against the AI SDK alone | ${ms(report.loopMs)} | AI SDK ${ms(report.sdkMs)} | ${report.ownRatio.toFixed(2)}× | context |`,
    `| ${report.tokens} tokens paced at 2,500 tokens/s | ${ms(report.pacedLoopMs)} | raw SSE ${ms(report.pacedRawMs)} | ` +
      `${report.pacedRatio.toFixed(3)}× | context |`,
    `| loop overhead per tool call (${report.toolCalls} in one turn) | ${report.perToolCallMs.toFixed(2)} ms | — | — | context |`,
  ];
  process.stdout.write(`\n${table.join('\n')}\n`);
  await mkdir(join(process.cwd(), 'bench', 'results'), { recursive: true });
  await writeFile(
    join(process.cwd(), 'bench', 'results', 'stream-overhead.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ratioLimit, report }, null, 2)}\n`,
  );
  return !pass;
}
