import { linkSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readAndClose } from '../../test-support/handed-descriptors';
import { ctimesKeptHere } from '../../test-support/ctimes-kept';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchorRoots } from './anchor-roots';
import { createAnchoredFs } from './anchored-fs';
import type { AnchoredFs } from './anchored-fs';
import { createWorkspaceSandbox } from './workspace-sandbox';
import { LOOK_UP_AT_MOST } from './walk-folder-entries';
import type { WalkEntry, WalkOptions } from './workspace-walker';

/**
 * A walk that wants a few names of a folder (WalkOptions.only) looks them up instead of listing the
 * folder (issue 32: a rare word's first search confirms ripgrep's candidates folder by folder),
 * and the files it opened first are then proven to be their workspace name alone without the
 * listing's lock: by a ctime older than the walk (walk-opened-files.ts), or else by their name.
 */
const tempDir = useTempDirs();

interface Counted {
  readonly anchored: AnchoredFs;
  /** Name proofs: `locked` takes the folder's lock itself, `afterListing` relies on a listing's. */
  readonly calls: { readdir: number; locked: number; afterListing: number; opened: string[] };
  /** Run once, right after the file `name` is opened (before its fstat). */
  afterOpen?: { name: string; run: () => void } | undefined;
}

/** The real anchored lookups, counting folder listings and name proofs, with a hook after an open. */
function countedFs(): Counted {
  const real = createAnchoredFs();
  const counted: Counted = {
    calls: { readdir: 0, locked: 0, afterListing: 0, opened: [] },
    anchored: {
      ...real,
      readdir: (dir) => {
        counted.calls.readdir += 1;
        return real.readdir(dir);
      },
      stillNamed: (fd, dir, name) => {
        counted.calls.locked += 1;
        return real.stillNamed(fd, dir, name);
      },
      namedAfterListing: (fd, dir, name) => {
        counted.calls.afterListing += 1;
        return real.namedAfterListing(fd, dir, name);
      },
      openFile: (dir, name, flags, mode) => {
        counted.calls.opened.push(name);
        const fd = real.openFile(dir, name, flags, mode);
        const hook = counted.afterOpen;
        if (hook?.name === name) {
          counted.afterOpen = undefined;
          hook.run();
        }
        return fd;
      },
    },
  };
  return counted;
}

async function workspaceWith(files: Record<string, string>) {
  const root = await tempDir();
  const workspace = join(root, 'ws');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  mkdirSync(workspace, { recursive: true });
  const counted = countedFs();
  const sandbox = createWorkspaceSandbox({
    workspaceRoot: workspace,
    personaDir: workspace,
    roots: createAnchorRoots(counted.anchored),
    isConcealed: () => false,
  });
  return { root, workspace, counted, sandbox };
}

type Walked = Awaited<ReturnType<typeof workspaceWith>>;

async function walkOnly(
  { sandbox }: Walked,
  only: Record<string, readonly string[]>,
  options: Partial<WalkOptions> = {},
): Promise<Map<string, WalkEntry>> {
  const start = await sandbox.resolve('.', 'read');
  if (!start.ok) throw new Error(start.error.message);
  const visited = new Map<string, WalkEntry>();
  const walked = await sandbox.walk(start.value, {
    recursive: true,
    includeHidden: false,
    only: (relPath) => new Set(only[relPath] ?? []),
    ...options,
    visit: (entry) => {
      visited.set(entry.relPath, entry);
      return 'continue';
    },
  });
  if (!walked.ok) throw new Error(walked.error.message);
  return visited;
}

const seen = (visited: Map<string, WalkEntry>) =>
  [...visited.values()].map(({ relPath, kind, ignored }) => `${relPath} ${kind}${ignored ? ' ignored' : ''}`);

/** The same names and LOOK_UP_AT_MOST more that are not there: each folder is then listed. */
const listed = (only: Record<string, readonly string[]>) =>
  Object.fromEntries(
    Object.entries(only).map(([folder, names]) => [
      folder,
      [...names, ...Array.from({ length: LOOK_UP_AT_MOST }, (_, i) => `missing-${i}`)],
    ]),
  );

/** What a walk to the one name `name` of `folder` wants of each folder on the way. */
function onlyTo(folder: string, name: string): Record<string, readonly string[]> {
  const segments = folder === '' ? [] : folder.split('/');
  const only: Record<string, readonly string[]> = { [folder]: [name] };
  segments.forEach((segment, at) => (only[segments.slice(0, at).join('/')] = [segment]));
  return only;
}

describe.runIf(createAnchoredFs().mode === 'proc-fd')('a walk that looks a few names up', () => {
  it('finds what the listing filtered to those names finds, and nothing through . or ..', async () => {
    const ws = await workspaceWith({
      'a/x.txt': 'x\n',
      'a/.hidden.txt': 'hidden\n',
      'a/ignored.txt': 'ignored\n',
      'a/.gitignore': 'ignored.txt\nsub/deep.txt\n',
      'a/node_modules/m.js': 'module\n',
      'a/sub/y.txt': 'y\n',
      'a/sub/deep.txt': 'ignored from above\n',
      'b/z.txt': 'z\n',
    });
    symlinkSync('../b', join(ws.workspace, 'a', 'link'));
    const asked: Record<string, readonly string[]> = {
      '': ['a', 'b', '..', '.', '', 'missing'],
      a: ['x.txt', '.hidden.txt', 'ignored.txt', 'node_modules', 'link', '..'],
      'a/sub': ['y.txt', 'deep.txt', '.'],
      'a/node_modules': ['m.js'],
      b: ['z.txt', '..'],
    };
    const found = new Set<string>();
    for (const [folder, names] of Object.entries(asked)) {
      for (const name of names) {
        for (const includeIgnored of [false, true]) {
          ws.counted.calls.readdir = 0;
          const lookedUp = await walkOnly(ws, onlyTo(folder, name), { includeIgnored, withFacts: true });
          expect(ws.counted.calls.readdir).toBe(0);
          ws.counted.calls.readdir = 0;
          const byListing = await walkOnly(ws, listed(onlyTo(folder, name)), { includeIgnored, withFacts: true });
          expect(ws.counted.calls.readdir).toBeGreaterThan(0);
          expect(seen(lookedUp)).toEqual(seen(byListing));
          for (const entry of lookedUp.values()) {
            expect(entry.relPath.split('/')).not.toContain('..');
            if (!includeIgnored) found.add(`${entry.relPath} ${entry.kind}`);
          }
        }
      }
    }
    expect([...found].sort()).toEqual([
      'a directory',
      'a/link symlink',
      'a/sub directory',
      'a/sub/y.txt file',
      'a/x.txt file',
      'b directory',
      'b/z.txt file',
    ]);
    const x = await walkOnly(ws, onlyTo('a', 'x.txt'), { withFacts: true });
    expect(x.get('a/x.txt')?.facts?.size).toBe(2);
  });

  it.runIf(ctimesKeptHere())(
    'hands over a file opened first whose one link is older than the walk without proving its name',
    async () => {
      const ws = await workspaceWith({ 'a/settled.txt': 'settled\n', 'a/two.txt': 'linked twice\n' });
      linkSync(join(ws.workspace, 'a', 'two.txt'), join(ws.root, 'outside-two.txt'));
      await sleep(120); // both ctimes now older than the walk by more than linksSettledMs
      // Both opened first: nothing is left to look up in 'a'.
      const only = { '': ['a'], a: ['settled.txt', 'two.txt'] };
      const openFirst = (relPath: string) => (relPath === 'a' ? ['settled.txt', 'two.txt'] : undefined);
      const visited = await walkOnly(ws, only, { openFirst, linksSettledMs: 50 });
      expect(ws.counted.calls.readdir).toBe(0); // both folders read name by name
      expect(readAndClose(visited.get('a/settled.txt')?.opened)).toBe('settled\n');
      expect(visited.get('a/two.txt')?.opened).toBeUndefined(); // a second hard link: never handed over
      expect(visited.get('a/two.txt')?.kind).toBe('file');
      expect(ws.counted.calls).toEqual({
        readdir: 0,
        locked: 0,
        afterListing: 0,
        opened: ['settled.txt', 'two.txt'],
      });
      // A file changed within the slack is proven by its name (the lock taken there, not listed).
      const fresh = await walkOnly(ws, only, { openFirst, linksSettledMs: 60_000 });
      expect(readAndClose(fresh.get('a/settled.txt')?.opened)).toBe('settled\n');
      expect(ws.counted.calls).toEqual(expect.objectContaining({ readdir: 0, locked: 1, afterListing: 0 }));
    },
  );

  it('never hands over a file whose workspace name was unlinked between its open and its fstat', async () => {
    const ws = await workspaceWith({ 'a/h.txt': 'opened first\n', 'a/inside.txt': 'inside\n' });
    await sleep(120);
    const name = join(ws.workspace, 'a', 'h.txt');
    // After the open, before the fstat: the file gets an outside link and loses its workspace one,
    // so the fstat shows one link (the outside one) and a ctime of now.
    ws.counted.afterOpen = {
      name: 'h.txt',
      run: () => {
        linkSync(name, join(ws.root, 'kept-outside.txt'));
        unlinkSync(name);
      },
    };
    const visited = await walkOnly(
      ws,
      { '': ['a'], a: ['h.txt', 'inside.txt'] },
      { openFirst: (relPath) => (relPath === 'a' ? ['h.txt', 'inside.txt'] : undefined), linksSettledMs: 50 },
    );
    expect(ws.counted.afterOpen).toBeUndefined(); // the hook ran
    // Visited as it was at its open, its descriptor refused by the name proof (the lock taken there).
    expect(visited.get('a/h.txt')?.kind).toBe('file');
    expect(visited.get('a/h.txt')?.opened).toBeUndefined();
    expect(ws.counted.calls).toEqual(expect.objectContaining({ readdir: 0, locked: 1, afterListing: 0 }));
    expect(readAndClose(visited.get('a/inside.txt')?.opened)).toBe('inside\n');
  });

  it('opens first only names a folder can hold, never a path through a link to an outside folder', async () => {
    const ws = await workspaceWith({ 'inside.txt': 'inside\n', '../outside/secret.txt': 'OUTSIDE\n' });
    symlinkSync(join(ws.root, 'outside'), join(ws.workspace, 'link'));
    await sleep(120);
    const names = ['link/secret.txt', '..', '.', 'inside.txt'];
    const visited = await walkOnly(
      ws,
      { '': ['link', 'inside.txt'] },
      { openFirst: (relPath) => (relPath === '' ? names : undefined), linksSettledMs: 50 },
    );
    expect(ws.counted.calls.opened).toEqual(['inside.txt']);
    expect(readAndClose(visited.get('inside.txt')?.opened)).toBe('inside\n');
    expect(visited.get('link')?.kind).toBe('symlink');
    expect([...visited.keys()].sort()).toEqual(['inside.txt', 'link']);
  });
});
