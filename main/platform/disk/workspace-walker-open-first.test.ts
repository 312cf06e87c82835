import { linkSync, mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import { readAndClose } from '../../test-support/handed-descriptors';
import { useTempDirs } from '../../test-support/temp-dir';
import type { WalkEntry, WalkOptions } from './workspace-walker';

/**
 * The walk's openFirst (issue 32: search_in_code's first search reads ripgrep's candidates through
 * the descriptors its confirming walk opened): each file named is opened before its folder is
 * listed, handed to the visitor only when the listing shows it still under that name with one link,
 * and every descriptor the visitor is not given is closed by the walk.
 */
const tempDir = useTempDirs();
const openDescriptors = () => readdirSync('/proc/self/fd').length;

async function walkOpening(
  kit: ToolKit,
  openFirst: NonNullable<WalkOptions['openFirst']>,
): Promise<Map<string, WalkEntry>> {
  const start = await kit.env.sandbox.resolve('.', 'read');
  if (!start.ok) throw new Error(start.error.message);
  const visited = new Map<string, WalkEntry>();
  const walked = await kit.env.sandbox.walk(start.value, {
    recursive: true,
    includeHidden: false,
    withFacts: true,
    openFirst,
    visit: (entry) => {
      visited.set(entry.relPath, entry);
      return 'continue';
    },
  });
  if (!walked.ok) throw new Error(walked.error.message);
  return visited;
}

describe.runIf(process.platform === 'linux')('a walk that opens files before listing their folder', () => {
  it('hands each visited file over opened, with its facts, and closes those it does not visit', async () => {
    const kit = await createToolKit(tempDir, {
      files: {
        'a.txt': 'alpha\n',
        'sub/b.txt': 'bravo!\n',
        'sub/c.txt': 'not asked for\n',
        '.hidden.txt': 'hidden\n',
        'ignored.txt': 'ignored\n',
        '.gitignore': 'ignored.txt\n',
        'node_modules/dep/index.js': 'dep\n',
      },
    });
    try {
      mkdirSync(join(kit.workspace, 'folder.txt')); // a folder under an asked-for name: never handed over
      const asked: Record<string, string[]> = {
        '': ['a.txt', '.hidden.txt', 'ignored.txt', 'missing.txt', 'folder.txt', 'a.txt'],
        sub: ['b.txt'],
        'node_modules/dep': ['index.js'],
      };
      const before = openDescriptors();
      const visited = await walkOpening(kit, (relPath) => asked[relPath]);
      const opened = [...visited.values()].filter((entry) => entry.opened !== undefined);
      // Only what was visited and asked for; nothing hidden, ignored or walked past stays open.
      expect(opened.map((entry) => entry.relPath).sort()).toEqual(['a.txt', 'sub/b.txt']);
      expect(openDescriptors()).toBe(before + 2);
      const a = visited.get('a.txt')!;
      expect(a.facts).toEqual(expect.objectContaining({ size: 6, nlink: 1 }));
      expect(readAndClose(a.opened)).toBe('alpha\n');
      expect(readAndClose(visited.get('sub/b.txt')!.opened)).toBe('bravo!\n');
      expect(openDescriptors()).toBe(before);
      // Files not asked for come as before: facts by lstat, nothing opened.
      expect(visited.get('sub/c.txt')).toEqual(expect.objectContaining({ opened: undefined }));
      expect(visited.get('sub/c.txt')!.facts?.size).toBe(14);
      expect(visited.get('folder.txt')?.opened).toBeUndefined();
    } finally {
      await kit.dispose();
    }
  });

  it('does not hand over a file with a second hard link', async () => {
    const kit = await createToolKit(tempDir, { files: { 'two.txt': 'linked twice\n' } });
    try {
      linkSync(join(kit.workspace, 'two.txt'), join(kit.workspace, '..', 'outside-two.txt'));
      const before = openDescriptors();
      const visited = await walkOpening(kit, () => ['two.txt']);
      expect(visited.get('two.txt')?.opened).toBeUndefined();
      expect(visited.get('two.txt')?.facts?.nlink).toBe(2);
      expect(openDescriptors()).toBe(before);
    } finally {
      await kit.dispose();
    }
  });

  it('does not hand over a file whose name was unlinked after it was opened, though the name is back', async () => {
    const kit = await createToolKit(tempDir, { files: { 'a.txt': 'opened first\n' } });
    try {
      const name = join(kit.workspace, 'a.txt');
      const outside = join(kit.workspace, '..', 'kept-outside.txt');
      // The walk opens a.txt (one link), then asks for the next name: meanwhile the file gets an
      // outside link and loses its workspace one, and a new a.txt takes the name. The kernel then
      // calls the descriptor '<workspace>/a.txt (deleted)': the listing shows a.txt, not that file.
      const names = {
        *[Symbol.iterator]() {
          yield 'a.txt';
          linkSync(name, outside);
          unlinkSync(name);
          writeFileSync(name, 'new\n');
        },
      };
      const before = openDescriptors();
      const visited = await walkOpening(kit, () => names);
      const a = visited.get('a.txt')!;
      expect(a.opened).toBeUndefined();
      expect(a.facts?.size).toBe(4); // the new file, by lstat
      expect(openDescriptors()).toBe(before);
    } finally {
      await kit.dispose();
    }
  });
  it('closes what it holds when a callback throws: the file opened first, the folder opened for a visit', async () => {
    const kit = await createToolKit(tempDir, { files: { 'a.txt': 'alpha\n', 'sub/b.txt': 'bravo\n' } });
    try {
      const start = await kit.env.sandbox.resolve('.', 'read');
      if (!start.ok) throw new Error(start.error.message);
      const before = openDescriptors();
      // Names given by an iterator that throws once the first file is open.
      function* namesThatFail() {
        yield 'a.txt';
        throw new Error('names failed');
      }
      const failing = (throwIn: 'withFacts' | 'visit' | 'visitor-owned' | 'only' | 'names') =>
        kit.env.sandbox.walk(start.value, {
          recursive: true,
          includeHidden: false,
          openFirst: (relPath) => (relPath === 'sub' ? ['b.txt'] : throwIn === 'names' ? namesThatFail() : ['a.txt']),
          only: (relPath) => {
            if (throwIn === 'only' && relPath === 'sub') throw new Error('only failed');
            return undefined;
          },
          withFacts: (relPath) => {
            if (throwIn === 'withFacts' && relPath === 'sub/b.txt') throw new Error('withFacts failed');
            return true;
          },
          visit: (entry) => {
            if (throwIn === 'visit' && entry.relPath === 'sub') throw new Error('visit failed');
            if (entry.opened !== undefined) readAndClose(entry.opened);
            // Given a descriptor, the visitor owns it: closed here, the walk must not close it again.
            if (throwIn === 'visitor-owned' && entry.relPath === 'a.txt') throw new Error('visitor failed');
            return 'continue';
          },
        });
      await expect(failing('withFacts')).rejects.toThrow('withFacts failed');
      expect(openDescriptors()).toBe(before);
      await expect(failing('visit')).rejects.toThrow('visit failed');
      expect(openDescriptors()).toBe(before);
      await expect(failing('visitor-owned')).rejects.toThrow('visitor failed');
      expect(openDescriptors()).toBe(before);
      await expect(failing('only')).rejects.toThrow('only failed');
      expect(openDescriptors()).toBe(before);
      await expect(failing('names')).rejects.toThrow('names failed');
      expect(openDescriptors()).toBe(before);
    } finally {
      await kit.dispose();
    }
  });
});
