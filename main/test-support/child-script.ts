import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { build } from 'vite';

const repoRoot = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

export interface ChildScriptOptions {
  /** The file worker threads work (search, listings, index builds): fs-worker.mjs is built beside the program. */
  readonly fileWorkers?: boolean;
}

const fsWorkerSource = join(repoRoot, 'main', 'platform', 'search-engines', 'fs-worker.ts');

/**
 * Bundles a small TypeScript program (which may import project modules by absolute path) into one
 * .mjs file a child `node` can run: node 20 cannot run TypeScript itself, and crash and protocol
 * tests need the real code in a separate process they can talk to or SIGKILL. The one way tests
 * make child processes from source; nothing built is checked in.
 */
export async function bundleChildScript(source: string, options: ChildScriptOptions = {}): Promise<string> {
  // Inside the repo, so any package left external still resolves from node_modules.
  const dir = await mkdtemp(join(repoRoot, 'node_modules', '.familiar-child-'));
  made.push(dir);
  const entry = join(dir, 'entry.ts');
  await writeFile(entry, source);
  await build({
    configFile: false,
    logLevel: 'silent',
    // What electron.vite.config.ts and vitest.config.ts inject at build time.
    define: { __FAMILIAR_VERSION__: JSON.stringify(version) },
    build: {
      ssr: true,
      outDir: join(dir, 'out'),
      emptyOutDir: true,
      minify: false,
      rolldownOptions: {
        input: {
          entry,
          // As the app build has it: the file workers' module beside the entry (fs-worker-pool.ts).
          ...(options.fileWorkers === true ? { 'fs-worker': fsWorkerSource } : {}),
        },
        output: { format: 'es', entryFileNames: '[name].mjs' },
      },
    },
    // piscina starts its threads from its own worker.js beside its code: bundled, it would look beside the bundle.
    ssr: options.fileWorkers === true ? { noExternal: true, external: ['piscina'] } : { noExternal: true },
  });
  return join(dir, 'out', 'entry.mjs');
}

/** `import "<file>"` for bundleChildScript: a module whose top level runs the program (e.g. main/mcp.ts). */
export const importOf = (file: string): string => `import ${JSON.stringify(file)};\n`;
