import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __FAMILIAR_VERSION__: JSON.stringify(version), __FAMILIAR_BUILD__: JSON.stringify({ signed: false }) },
  test: {
    // Tests run real processes, worker threads and disks on 2 shared cores: a slow machine must not
    // turn into a failure. Performance is measured in bench/, never by these limits.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'main/**/*.test.ts',
            'shared/**/*.test.ts',
            'preload/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          setupFiles: ['renderer/test-setup.ts'],
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
        },
      },
    ],
  },
});
