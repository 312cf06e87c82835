// `npm run bench` step 1: bundle bench/run.ts (TypeScript that imports the real tools and, in a
// lazily loaded chunk, the stream benchmark with the chat core) for plain node. Node 20 cannot run
// .ts and tsx is not a dependency, so the Vite we build the app with does it: an SSR build keeps
// node_modules external. Step 2 runs out/bench/run.mjs [tools|stream].
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
// `node bench/build.mjs semantic-search` builds bench/semantic-search.ts instead of run.ts.
const entry = process.argv[2] ?? 'run';

await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: fileURLToPath(new URL('../out/bench', import.meta.url)),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rolldownOptions: {
      // The file workers' module beside the entry, as the app build has it (main/platform/search-engines/fs-worker-pool.ts).
      input: {
        [entry]: fileURLToPath(new URL(`${entry}.ts`, import.meta.url)),
        'fs-worker': fileURLToPath(new URL('../main/platform/search-engines/fs-worker.ts', import.meta.url)),
      },
      output: { format: 'es', entryFileNames: '[name].mjs' },
    },
  },
});
