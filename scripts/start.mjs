// `npm start`: build when needed, then launch the desktop app; where Electron's binary cannot be
// had (no network, unsupported platform), say so in one line and start browser mode instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfStale() {
  const built = join(root, 'out', 'main', 'serve.js');
  const sources = ['main', 'preload', 'renderer', 'shared'].map((dir) => newestMtime(join(root, dir)));
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources)) return;
  console.log('Building Familiar…');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The Electron binary's path, downloading it once if it is missing; null when it cannot be had. */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const binary = () => (existsSync(pathFile) ? join(pkg, 'dist', readFileSync(pathFile, 'utf8')) : null);
  const present = binary();
  if (present !== null && existsSync(present)) return present;
  // Electron 42+ fetches its binary lazily; try once, quietly, so a normal machine just works.
  const install = spawnSync(process.execPath, [join(pkg, 'install.js')], { stdio: 'ignore', timeout: 300_000 });
  const fetched = binary();
  return install.status === 0 && fetched !== null && existsSync(fetched) ? fetched : null;
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal === null ? (code ?? 0) : 1));
}

buildIfStale();
const electron = electronBinary();
if (electron === null) {
  console.log(
    'Electron is not available on this machine (its binary could not be downloaded), so Familiar starts in browser mode instead.',
  );
  run(process.execPath, [join(root, 'out', 'main', 'serve.js'), ...args]);
} else {
  run(electron, [root, ...args]);
}
