import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from '../main/test-support/seeded-random';

/**
 * The benchmark corpus: a monorepo-like tree generated from a seeded PRNG, so every run measures
 * the same bytes. Sizes follow issue 3: ≥ 30k files, a .gitignore'd folder, a 200 MB / 2M-line log
 * and a 5 MB source file.
 */
export const corpusLayout = {
  packages: 30,
  modulesPerPackage: 20,
  filesPerModule: 50,
  ignoredFiles: 3_000,
  logLines: 2_000_000,
  logBytes: 200 * 1024 * 1024,
  /** Just under write_file's 5 MiB cap, so edit_file may rewrite it. */
  bigSourceBytes: 5_000_000,
  /** The needle planted in a known share of files, so search has real work to report. */
  needle: 'FamiliarNeedleToken',
  /** A unique line in the middle of the 5 MB file that the edit benchmark rewrites. */
  editMarker: '// FAMILIAR-EDIT-TARGET',
} as const;

export interface Corpus {
  readonly root: string;
  readonly logFile: string;
  readonly bigSourceFile: string;
  readonly sourceFiles: number;
}

const version = 'corpus-v3';

const words = (
  'account adapter buffer cache channel client config context cursor decode delta dispatch document encode entry ' +
  'event factory filter format handler header index item journal kernel layout ledger listener loader manager ' +
  'message metric module node option packet parser payload pipeline policy queue reader record region registry ' +
  'render request resolver response result router schema scope session signal socket source state store stream ' +
  'table task token tracker transform value vector view widget worker writer'
).split(' ');

function sourceFile(random: () => number, index: number, withNeedle: boolean): string {
  const pick = () => words[Math.floor(random() * words.length)] ?? 'value';
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const lines: string[] = [
    `// Module ${index}: generated for the Familiar benchmark.`,
    `import { ${cap(pick())}${cap(pick())} } from './${pick()}';`,
    '',
  ];
  const functions = 2 + Math.floor(random() * 6);
  for (let f = 0; f < functions; f += 1) {
    const name = `${pick()}${cap(pick())}${f}`;
    lines.push(`export function ${name}(${pick()}: ${cap(pick())}, ${pick()}: number): ${cap(pick())} | undefined {`);
    const body = 3 + Math.floor(random() * 12);
    for (let b = 0; b < body; b += 1) {
      lines.push(
        `  const ${pick()}${b} = ${pick()}.${pick()}(${pick()}, ${Math.floor(random() * 1000)}); // ${pick()} ${pick()}`,
      );
    }
    if (withNeedle && f === 0) lines.push(`  ${corpusLayout.needle}.register('${name}');`);
    lines.push(`  return undefined;`, `}`, '');
  }
  return lines.join('\n');
}

async function writeSources(root: string, packages: number = corpusLayout.packages): Promise<number> {
  const random = seededRandom(42);
  let count = 0;
  for (let p = 0; p < packages; p += 1) {
    for (let m = 0; m < corpusLayout.modulesPerPackage; m += 1) {
      const dir = join(root, 'packages', `pkg-${p}`, 'src', `module-${m}`);
      await mkdir(dir, { recursive: true });
      const writes: Promise<void>[] = [];
      for (let f = 0; f < corpusLayout.filesPerModule; f += 1) {
        const withNeedle = random() < 0.01;
        writes.push(writeFile(join(dir, `file-${f}.ts`), sourceFile(random, count, withNeedle)));
        count += 1;
      }
      await Promise.all(writes);
    }
  }
  return count;
}

async function writeIgnored(root: string): Promise<void> {
  const random = seededRandom(7);
  for (let d = 0; d < corpusLayout.ignoredFiles / 100; d += 1) {
    const dir = join(root, 'build', `chunk-${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, f) => writeFile(join(dir, `out-${f}.js`), sourceFile(random, f, true))),
    );
  }
}

async function writeLog(file: string): Promise<void> {
  const random = seededRandom(1234);
  const levels = ['INFO', 'DEBUG', 'WARN', 'ERROR'];
  const target = corpusLayout.logBytes / corpusLayout.logLines;
  const out = createWriteStream(file);
  const start = Date.UTC(2025, 0, 1);
  let batch: string[] = [];
  for (let i = 1; i <= corpusLayout.logLines; i += 1) {
    const head = `${new Date(start + i * 1000).toISOString()} ${levels[Math.floor(random() * 4)]} line=${i} `;
    let text = head;
    while (text.length < target - 1) text += `${words[Math.floor(random() * words.length)]} `;
    batch.push(text.slice(0, target - 1));
    if (batch.length === 10_000) {
      if (!out.write(`${batch.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join('\n')}\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

async function writeBigSource(file: string): Promise<void> {
  const random = seededRandom(99);
  const parts: string[] = [];
  let size = 0;
  let index = 0;
  for (;;) {
    const chunk = sourceFile(random, index, false);
    if (size + chunk.length + 1 > corpusLayout.bigSourceBytes) break;
    parts.push(chunk);
    size += chunk.length + 1;
    index += 1;
    if (index === 700) parts.push(`${corpusLayout.editMarker} 0`);
  }
  await writeFile(file, parts.join('\n'));
}

/** Binary assets (skipped by search) and a node_modules folder (ignored by everyone). */
async function writeExtras(root: string): Promise<void> {
  const random = seededRandom(5);
  await mkdir(join(root, 'assets'), { recursive: true });
  for (let i = 0; i < 50; i += 1) {
    const bytes = Buffer.alloc(20_000);
    for (let b = 0; b < bytes.length; b += 1) bytes[b] = Math.floor(random() * 256);
    await writeFile(join(root, 'assets', `image-${i}.png`), bytes);
  }
  const modules = join(root, 'node_modules', 'left-pad');
  await mkdir(modules, { recursive: true });
  await writeFile(join(modules, 'index.js'), sourceFile(random, 0, true));
  // rg and fd apply .gitignore only inside a git repository; an empty .git makes this one.
  await mkdir(join(root, '.git'), { recursive: true });
}

/**
 * A generated tree is removed and written again when its stamp is another version's. A folder with
 * no stamp and something in it was not made here (BENCH_CORPUS or BENCH_TREE naming a real project):
 * refused, never removed.
 */
async function refuseForeignFolder(root: string, stamp: string): Promise<void> {
  if (stamp !== '') return;
  const entries = await readdir(root).catch(() => [] as string[]);
  if (entries.length > 0) {
    throw new Error(
      `${root} holds files the bench did not generate: it is never rewritten (BENCH_TREE_AS_IS=1 measures a tree as it is; npm run bench:tree -- <folder> too).`,
    );
  }
}

/** Builds the corpus once; later runs reuse it when its stamp matches. */
export async function ensureCorpus(root: string, log: (line: string) => void): Promise<Corpus> {
  const corpus: Corpus = {
    root,
    logFile: join(root, 'logs', 'app.log'),
    bigSourceFile: join(root, 'packages', 'big', 'generated.ts'),
    sourceFiles: corpusLayout.packages * corpusLayout.modulesPerPackage * corpusLayout.filesPerModule,
  };
  const stamp = join(root, '.corpus-stamp');
  const existing = await readFile(stamp, 'utf8').catch(() => '');
  if (existing === version && (await stat(corpus.logFile).catch(() => undefined))) return corpus;

  await refuseForeignFolder(root, existing);
  log(`generating the corpus in ${root} (once)...`);
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, 'logs'), { recursive: true });
  await mkdir(join(root, 'packages', 'big'), { recursive: true });
  await writeFile(join(root, '.gitignore'), 'build/\nnode_modules/\n*.tmp\n');
  await writeSources(root);
  await writeIgnored(root);
  await writeBigSource(corpus.bigSourceFile);
  await writeExtras(root);
  await writeLog(corpus.logFile);
  await writeFile(stamp, version);
  return corpus;
}

/**
 * A source tree alone (no log, no ignored build output): `packages` × 1,000 generated files under
 * packages/, a .gitignore and an empty .git (so rg applies it as Familiar does). For the index
 * states of the tools bench (bench/index-states.ts), which ask for at least 60k files.
 */
export async function ensureSourceTree(root: string, packages: number, log: (line: string) => void): Promise<Corpus> {
  const corpus: Corpus = {
    root,
    logFile: '',
    bigSourceFile: '',
    sourceFiles: packages * corpusLayout.modulesPerPackage * corpusLayout.filesPerModule,
  };
  // BENCH_TREE_AS_IS=1: a tree of your own (an npm install's node_modules), measured as it is.
  if (process.env['BENCH_TREE_AS_IS'] === '1') return { ...corpus, sourceFiles: 0 };
  const stamp = join(root, '.corpus-stamp');
  const wanted = `tree-v1-${packages}`;
  const existing = await readFile(stamp, 'utf8').catch(() => '');
  if (existing === wanted) return corpus;
  await refuseForeignFolder(root, existing);
  log(`generating a tree of ${corpus.sourceFiles} files in ${root} (once)...`);
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, '.git'), { recursive: true });
  await writeFile(join(root, '.gitignore'), 'build/\nnode_modules/\n*.tmp\n');
  await writeSources(root, packages);
  await writeFile(stamp, wanted);
  return corpus;
}
