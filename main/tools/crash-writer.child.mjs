// Runs crash-writer.child.ts in a plain node process: Vite's module runner compiles the TypeScript.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const [workspace, home, ...contentFiles] = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));
const { module } = await runnerImport(fileURLToPath(new URL('./crash-writer.child.ts', import.meta.url)), {
  root,
  configFile: false,
  logLevel: 'silent',
});
await module.writeForever(workspace, home, contentFiles);
