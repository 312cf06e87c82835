import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';

/**
 * The ground for the race suite (race.attack.test.ts): a workspace, a persona folder and an
 * "outside" full of marked secrets, plus a swapper process that keeps replacing workspace folders
 * and files with symlinks to the outside, planting hard links to outside files and dangling links
 * where a creation would land outside. Test support only.
 */
export interface RaceLayout {
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
  readonly personaDir: string;
  readonly outside: string;
  /** Appears in every outside file and nowhere inside: any answer holding it leaked. */
  readonly marker: string;
}

const swapperSource = `
const fs = require('node:fs');
const { join } = require('node:path');
const [ws, persona, out] = process.argv.slice(2);
const quiet = (f) => { try { f(); } catch {} };
// Folder <-> symlink to the outside, file <-> symlink, a hard link to an outside file appearing, a
// dangling link where a creation would land outside; the persona folder's memory/ too.
for (let n = 0; ; n += 1) {
  quiet(() => fs.renameSync(join(ws, 'a'), join(ws, 'a.swap')));
  quiet(() => fs.symlinkSync(join(out, 'dir'), join(ws, 'a')));
  quiet(() => fs.renameSync(join(ws, 'f.txt'), join(ws, 'f.swap')));
  quiet(() => fs.symlinkSync(join(out, 'secret.txt'), join(ws, 'f.txt')));
  quiet(() => fs.linkSync(join(out, 'secret.txt'), join(ws, 'h.txt')));
  quiet(() => fs.symlinkSync(join(out, 'planted.txt'), join(ws, 'new.txt')));
  quiet(() => fs.renameSync(join(persona, 'memory'), join(persona, 'memory.swap')));
  quiet(() => fs.symlinkSync(join(out, 'dir'), join(persona, 'memory')));
  quiet(() => fs.unlinkSync(join(persona, 'memory')));
  quiet(() => fs.renameSync(join(persona, 'memory.swap'), join(persona, 'memory')));
  quiet(() => fs.unlinkSync(join(ws, 'new.txt')));
  quiet(() => fs.unlinkSync(join(ws, 'h.txt')));
  quiet(() => fs.unlinkSync(join(ws, 'f.txt')));
  quiet(() => fs.renameSync(join(ws, 'f.swap'), join(ws, 'f.txt')));
  quiet(() => fs.unlinkSync(join(ws, 'a')));
  quiet(() => fs.renameSync(join(ws, 'a.swap'), join(ws, 'a')));
  if (n % 64 === 0) process.send?.(n);
}
`;

export function createRaceLayout(root: string): RaceLayout {
  const marker = `OUTSIDE-${createHash('sha1').update(root).digest('hex').slice(0, 12)}`;
  const home = join(root, 'home');
  const personaDir = join(home, 'workspace');
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  for (const dir of [
    join(personaDir, 'memory'),
    join(workspace, 'a', 'deep'),
    join(workspace, 'stable'),
    join(outside, 'dir', 'deep'),
  ]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  // The same names inside and outside: a swap that is followed shows the outside twin.
  const inside = 'needle inside alpha\n';
  const secret = `needle ${marker} alpha\n`;
  fs.writeFileSync(join(workspace, 'a', 'f.txt'), inside);
  fs.writeFileSync(join(workspace, 'a', 'deep', 'g.txt'), inside);
  fs.writeFileSync(join(workspace, 'f.txt'), inside);
  fs.writeFileSync(join(workspace, 'stable', 's.txt'), 'needle stable alpha\n');
  fs.writeFileSync(join(personaDir, 'MEMORY.md'), '# Memory\n\nneedle memory alpha\n');
  fs.writeFileSync(join(personaDir, 'memory', '2026-01-01.md'), 'needle note alpha\n');
  fs.writeFileSync(join(outside, 'secret.txt'), secret);
  fs.writeFileSync(join(outside, 'dir', 'f.txt'), secret);
  fs.writeFileSync(join(outside, 'dir', '2026-01-01.md'), secret);
  fs.writeFileSync(join(outside, 'dir', 'deep', 'g.txt'), secret);
  // A name only the outside has: a command run in a swapped folder would list it.
  fs.writeFileSync(join(outside, 'dir', `${marker}.txt`), secret);
  fs.writeFileSync(join(workspace, 'a', 'm.txt'), inside);
  execFileSync('git', ['init', '-q', workspace]);
  execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A']);
  execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start']);
  return { root, home, workspace, personaDir, outside, marker };
}

/** Every entry outside: path, kind, size, link count and content hash. Equal before and after = untouched. */
export function snapshotOutside(outside: string): string[] {
  const lines: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stats = fs.lstatSync(path);
      const id = rel === '' ? name : `${rel}/${name}`;
      if (stats.isDirectory()) {
        lines.push(`${id}/`);
        walk(path, id);
      } else {
        const hash = stats.isFile() ? createHash('sha1').update(fs.readFileSync(path)).digest('hex') : 'link';
        lines.push(`${id} ${stats.size} nlink=${stats.nlink} ${hash}`);
      }
    }
  };
  walk(outside, '');
  return lines;
}

/** Starts the swapper; resolves once it has made its first rounds. */
export async function startSwapper(layout: RaceLayout): Promise<ChildProcess> {
  const script = join(layout.root, 'swapper.cjs');
  fs.writeFileSync(script, swapperSource);
  const child = spawn(process.execPath, [script, layout.workspace, layout.personaDir, layout.outside], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code})`)));
  });
  return child;
}

/** Stops the swapper and puts every swapped name back, so the end state can be compared. */
export async function stopSwapper(child: ChildProcess, layout: RaceLayout): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  const ws = layout.workspace;
  const quiet = (f: () => void) => {
    try {
      f();
    } catch {
      // Already in place.
    }
  };
  for (const name of ['new.txt', 'h.txt']) quiet(() => fs.unlinkSync(join(ws, name)));
  const restore = (link: string, saved: string) => {
    if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() === true) fs.unlinkSync(link);
    // A tool may have made a real folder where the swapper had left the name empty: keep both then.
    if (fs.existsSync(saved) && !fs.existsSync(link)) fs.renameSync(saved, link);
  };
  restore(join(ws, 'f.txt'), join(ws, 'f.swap'));
  restore(join(ws, 'a'), join(ws, 'a.swap'));
  restore(join(layout.personaDir, 'memory'), join(layout.personaDir, 'memory.swap'));
}
