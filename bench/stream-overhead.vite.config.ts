import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '..');

/**
 * Node 20 cannot run .ts directly: bundle the stream benchmark with Vite (an SSR build keeps
 * node_modules external) and run it with plain node:
 *   npx vite build --config bench/stream-overhead.vite.config.ts && node out/bench-stream/stream-overhead.mjs
 */
// eslint-disable-next-line no-restricted-exports -- Vite reads its config from the default export.
export default defineConfig({
  root,
  logLevel: 'warn',
  build: {
    ssr: resolve(root, 'bench/stream-overhead.ts'),
    outDir: resolve(root, 'out/bench-stream'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rolldownOptions: { output: { format: 'es', entryFileNames: '[name].mjs' } },
  },
});
