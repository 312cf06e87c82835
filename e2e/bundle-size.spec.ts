import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

const rendererDir = join(import.meta.dirname, '..', 'out', 'renderer');
/** The issue's budget for what the page loads before Monaco is ever needed. */
const INITIAL_BUDGET_GZ = 300 * 1024;

const gzipped = async (file: string) => gzipSync(await readFile(join(rendererDir, file)), { level: 9 }).length;

/** A chunk and every chunk it imports statically (what the browser must fetch before it runs). */
async function staticClosure(entries: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const code = await readFile(join(rendererDir, file), 'utf8');
    // Static imports only (`from"./x.js"`, `import"./x.js"`); import("./x.js") stays lazy.
    for (const match of code.matchAll(/(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) {
      pending.push(`assets/${match[1] ?? ''}`);
    }
  }
  return seen;
}

test('the initial renderer bundle stays within 300 KB gzipped and Monaco is a lazy chunk', async () => {
  const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
  const initial = await staticClosure(referenced);
  const initialGz = (await Promise.all([...initial].map(gzipped))).reduce((sum, size) => sum + size, 0);

  const assets = await readdir(join(rendererDir, 'assets'));
  const monacoEntry = assets.find((file) => file.startsWith('CodeView.lazy-') && file.endsWith('.js'));
  expect(monacoEntry, 'the lazy Monaco chunk').toBeDefined();
  expect([...initial].some((file) => file.includes('CodeView.lazy'))).toBe(false);
  const monaco = await staticClosure([`assets/${monacoEntry ?? ''}`]);
  const monacoOnly = [...monaco].filter((file) => !initial.has(file));
  const monacoCss = assets.filter((file) => file.startsWith('CodeView-') && file.endsWith('.css'));
  const monacoGz = (
    await Promise.all([...monacoOnly, ...monacoCss.map((file) => `assets/${file}`)].map(gzipped))
  ).reduce((sum, size) => sum + size, 0);
  const worker = assets.find((file) => file.startsWith('editor.worker-'));
  expect(worker, 'the bundled editor worker').toBeDefined();

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB gz`;
  test.info().annotations.push(
    { type: 'initial bundle', description: `${kb(initialGz)} (${[...initial].join(', ')})` },
    {
      type: 'monaco chunk',
      description: `${kb(monacoGz)} (+ editor worker ${kb(await gzipped(`assets/${worker ?? ''}`))})`,
    },
  );
  process.stdout.write(`initial bundle ${kb(initialGz)}; Monaco chunk ${kb(monacoGz)}\n`);
  expect(initialGz).toBeLessThanOrEqual(INITIAL_BUDGET_GZ);
});
