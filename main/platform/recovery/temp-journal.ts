import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createAnchorRoots } from '../disk/anchor-roots';
import type { AnchorRoots } from '../disk/anchor-roots';
import { openParentStrict } from '../disk/anchored-resolve';
import type { TempEntry, TempJournal } from '../disk/temp-files';

/** The marker every temp name carries; the sweep removes nothing else. */
export const tempNamePattern = /^\..*\.familiar-[0-9a-f]{12}\.tmp$/;

interface Line extends TempEntry {
  readonly op: 'add' | 'remove';
  readonly pid: number;
}

const key = (entry: TempEntry) => `${entry.root}\0${entry.dir}\0${entry.name}`;

/** A journal kept as JSON lines in Familiar's data folder (one small append per write and removal). */
export function createTempJournal(file: string): TempJournal {
  let ready = false;
  const append = (line: Line) => {
    try {
      if (!ready) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      ready = true;
      appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch {
      // Without the journal a crash may leave a temp file behind: a write must not fail for that.
    }
  };
  return {
    add: (entry) => append({ op: 'add', pid: process.pid, ...entry }),
    remove: (entry) => append({ op: 'remove', pid: process.pid, ...entry }),
  };
}

/** Whether a process still runs (EPERM: it does, as another user). */
export const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the temp files of writers that are gone and compacts the journal to the live ones.
 * Answers how many files were removed.
 */
export function sweepTempFiles(file: string, roots: AnchorRoots = createAnchorRoots()): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const open = new Map<string, Line>();
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue; // a torn last line from a crash
    }
    if (line.op === 'add') open.set(key(line), line);
    else open.delete(key(line));
  }
  let removed = 0;
  const kept: Line[] = [];
  for (const line of open.values()) {
    if (alive(line.pid)) {
      kept.push(line);
      continue;
    }
    if (!tempNamePattern.test(line.name)) continue;
    const root = roots.get(resolve(line.root));
    if (root === undefined) continue;
    try {
      const parent = openParentStrict(
        roots.anchored,
        root,
        line.dir === '' ? line.name : `${line.dir}/${line.name}`,
        () => false,
      );
      try {
        const stats = roots.anchored.lstat(parent.dir, parent.name);
        if (stats?.isFile() === true) {
          roots.anchored.unlink(parent.dir, parent.name);
          removed += 1;
        }
      } finally {
        parent.release();
      }
    } catch {
      // The folder is gone or changed: nothing of ours to remove there.
    }
  }
  try {
    const temp = `${file}.${process.pid}.compact`;
    writeFileSync(temp, kept.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // The next sweep compacts instead.
  }
  return removed;
}
