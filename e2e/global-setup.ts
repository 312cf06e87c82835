import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** `npm test` builds before e2e; a lone `npm run test:e2e` builds here if nothing was built yet. */
export default function globalSetup(): void {
  const root = join(import.meta.dirname, '..');
  if (!existsSync(join(root, 'out', 'main', 'serve.js')) || !existsSync(join(root, 'out', 'renderer', 'index.html'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' });
  }
}
