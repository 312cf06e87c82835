import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;
const r = (path: string) => resolve(root, path);
const { version } = JSON.parse(readFileSync(r('package.json'), 'utf8')) as { version: string };

// electron-vite looks under src/ by default; Familiar's layout puts each runtime at the top level.
export default defineConfig({
  main: {
    define: {
      __FAMILIAR_VERSION__: JSON.stringify(version),
      // The release workflow says whether this build's installers are code-signed (main/front-doors/electron/build-info.ts).
      __FAMILIAR_BUILD__: JSON.stringify({ signed: process.env['FAMILIAR_SIGNED'] === 'true' }),
    },
    build: {
      outDir: r('out/main'),
      rolldownOptions: {
        input: {
          index: r('main/index.ts'),
          serve: r('main/serve.ts'),
          mcp: r('main/mcp.ts'),
          // The file workers' module, loaded by piscina from a real file (main/platform/search-engines/fs-worker-pool.ts).
          'fs-worker': r('main/platform/search-engines/fs-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: r('out/preload'),
      // A sandboxed preload cannot require() packages: bundle everything but electron.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: r('preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: r('renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: r('out/renderer'),
      emptyOutDir: true,
      minify: true,
      rolldownOptions: { input: { index: r('renderer/index.html') } },
    },
    worker: { format: 'es' },
  },
});
