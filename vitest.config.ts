import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __FAMILIAR_VERSION__: JSON.stringify(version) },
  test: {
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
