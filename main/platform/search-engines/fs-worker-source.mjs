// The file worker under vitest, which runs TypeScript sources: a worker thread cannot load .ts, so
// this loader (never built, never shipped) compiles fs-worker.ts with jiti, a devDependency.
// Built code loads out/main/fs-worker.js instead (fs-worker-pool.ts chooses).
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
const worker = await jiti.import('./fs-worker.ts');

export const runFsTask = worker.runFsTask;
