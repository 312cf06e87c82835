import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { build } from 'vite';

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Bundles a small TypeScript program (which may import project modules by absolute path) into one
 * .mjs file a child `node` can run: node 20 cannot run TypeScript itself, and crash tests need the
 * real code in a process they can SIGKILL.
 */
export async function bundleChildScript(source: string): Promise<string> {
  // Inside the repo, so any package left external still resolves from node_modules.
  const dir = await mkdtemp(join(import.meta.dirname, '..', '..', 'node_modules', '.familiar-child-'));
  made.push(dir);
  const entry = join(dir, 'entry.ts');
  await writeFile(entry, source);
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: entry,
      outDir: join(dir, 'out'),
      emptyOutDir: true,
      minify: false,
      rolldownOptions: { output: { format: 'es', entryFileNames: 'entry.mjs' } },
    },
    ssr: { noExternal: true },
  });
  return join(dir, 'out', 'entry.mjs');
}
