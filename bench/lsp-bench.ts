import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { familiarPaths } from '../main/platform/storage/paths';
import type { AnyTool } from '../main/tools/define-tool';
import { codeDefinitionTool, codeHoverTool } from '../main/tools/index';
import { createToolEnvironment, createToolServices } from '../main/tools/kit/tool-services';
import { tableHead } from './measure';
import { benchToolCalls } from './tool-calls';

/**
 * `npm run bench` (or `npm run bench:lsp`): the shipped typescript-language-server on a generated
 * 200-file TypeScript project, called as the app calls it (code_hover / code_definition through the
 * whole tool-call pipeline). Cold start: a fresh server per run, from the call to its first real
 * answer (the project loaded). Warm: requests to the running server, each on another file, so every
 * one opens a document too. No targets yet (context figures): the issue asks for the numbers.
 */

const files = 200;
const coldRuns = Number(process.env['BENCH_LSP_COLD'] ?? 5);
const warmRuns = Number(process.env['BENCH_LSP_WARM'] ?? 100);

/** mod{i}.ts: an interface, a function calling the previous module's, a class using both. */
function moduleText(i: number): string {
  const previous = i === 0 ? '' : `import { step${i - 1}, type Shape${i - 1} } from './mod${i - 1}';\n`;
  return `${previous}
export interface Shape${i} {
  readonly id: number;
  readonly label: string;
  readonly parent?: ${i === 0 ? 'undefined' : `Shape${i - 1}`};
}

/** Step ${i} of the chain. */
export function step${i}(value: number): Shape${i} {
  const base = ${i === 0 ? '{ id: value, label: "root" }' : `step${i - 1}(value - 1)`};
  return { id: value, label: \`step ${i}: \${base.label}\`${i === 0 ? '' : ', parent: base'} };
}

export class Holder${i} {
  private readonly items: Shape${i}[] = [];

  add(value: number): number {
    this.items.push(step${i}(value));
    return this.items.length;
  }
}
`;
}

async function generateProject(root: string): Promise<void> {
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext' }, include: ['src'] }),
  );
  for (let i = 0; i < files; i += 1) await writeFile(join(root, 'src', `mod${i}.ts`), moduleText(i));
}

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

/** One app's worth of tool services on the project: a fresh language-server service each time. */
async function session(root: string) {
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-lsp-home-'));
  const paths = familiarPaths(home);
  const services = createToolServices({ paths, limits: { callsPerMinute: 1_000_000, timeoutMs: 600_000 } });
  const env = await createToolEnvironment({ services, workspaceRoot: root });
  const call = benchToolCalls([codeHoverTool, codeDefinitionTool] as AnyTool[], env, paths.audit, services.limits);
  return {
    call,
    dispose: async () => {
      await services.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The `step{i-1}(` call inside mod{i}.ts (line 11, column 16, 1-based; i ≥ 1), hovered or followed to mod{i-1}.ts. */
const callSite = (i: number) => ({ path: `src/mod${i}.ts`, line: 11, column: 16 });

export interface LspBenchReport {
  readonly files: number;
  readonly coldMs: readonly number[];
  readonly hoverMs: readonly number[];
  readonly definitionMs: readonly number[];
}

export async function runLspBench(log: (line: string) => void): Promise<LspBenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'familiar-bench-lsp-'));
  try {
    await generateProject(root);
    const coldMs: number[] = [];
    for (let run = 0; run < coldRuns; run += 1) {
      const s = await session(root);
      const start = performance.now();
      const hover = await s.call(codeHoverTool, callSite(files - 1));
      coldMs.push(performance.now() - start);
      if (!JSON.stringify(hover).includes(`step${files - 2}`)) throw new Error('cold hover did not answer the symbol');
      await s.dispose();
      log(`  cold start ${run + 1}/${coldRuns}: ${coldMs.at(-1)!.toFixed(0)} ms`);
    }
    const s = await session(root);
    try {
      await s.call(codeHoverTool, callSite(1));
      const hoverMs: number[] = [];
      const definitionMs: number[] = [];
      for (let run = 0; run < warmRuns; run += 1) {
        const i = 1 + ((run * 37) % (files - 1));
        let start = performance.now();
        await s.call(codeHoverTool, callSite(i));
        hoverMs.push(performance.now() - start);
        start = performance.now();
        const definition = await s.call(codeDefinitionTool, callSite(i));
        definitionMs.push(performance.now() - start);
        if (!JSON.stringify(definition).includes(`mod${i - 1}.ts`))
          throw new Error(`definition ${i} missed mod${i - 1}`);
      }
      return { files, coldMs, hoverMs, definitionMs };
    } finally {
      await s.dispose();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The suite as run.ts runs it: figures to stdout and bench/results/lsp.json; no target can fail yet. */
export async function runLspSuite(log: (line: string) => void): Promise<boolean> {
  log(`Language server: typescript-language-server on ${files} generated files...`);
  const report = await runLspBench(log);
  const row = (name: string, values: readonly number[]) =>
    `| ${name} | ${percentile(values, 50).toFixed(0)} ms | ${percentile(values, 95).toFixed(0)} ms | ${values.length} |`;
  const table = [
    ...tableHead(['language server (200-file TS project)', { right: 'p50' }, { right: 'p95' }, { right: 'runs' }]),
    row('cold start → first code_hover answer', report.coldMs),
    row('warm code_hover (another file each time)', report.hoverMs),
    row('warm code_definition (across files)', report.definitionMs),
  ];
  process.stdout.write(`${table.join('\n')}\n`);
  await mkdir(join(process.cwd(), 'bench', 'results'), { recursive: true });
  await writeFile(
    join(process.cwd(), 'bench', 'results', 'lsp.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`,
  );
  return false;
}
