import { readFileSync } from 'node:fs';
import { link, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { ctimesKeptHere } from '../../test-support/ctimes-kept';
import { useTempDirs } from '../../test-support/temp-dir';
import { anchoredOpener } from './anchored-opener';
import { keepsCtime } from './kept-ctime';

const tempDir = useTempDirs();
const proc = process.platform === 'linux';

/** A file system clock tick (up to 10 ms) and some. */
const tick = () => sleep(50);

describe.runIf(proc)('anchoredOpener().unchangedSince', () => {
  it('tells whether a name still leads to what a reader of it found after a moment: nothing on its way changed', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await mkdir(join(dir, 'sub', 'deeper'), { recursive: true });
    await writeFile(join(dir, 'sub', 'deeper', 'old.txt'), 'old\n');
    await writeFile(join(dir, 'sub', 'deeper', 'written.txt'), 'before\n');
    await writeFile(join(dir, 'swapped.txt'), 'mine\n');
    await writeFile(join(outside, 'secret.txt'), 'secret\n');
    await link(join(outside, 'secret.txt'), join(dir, 'hard.txt'));
    await mkdir(join(dir, 'moved'));
    await writeFile(join(dir, 'moved', 'a.txt'), 'a\n');
    // An old folder with an old file, put in another's place later.
    await mkdir(join(dir, 'elsewhere'));
    await writeFile(join(dir, 'elsewhere', 'a.txt'), 'another a\n');
    await tick();
    const since = Date.now();
    await tick();
    // After `since`: a write, a name swapped for another file, a folder put in another's place.
    await writeFile(join(dir, 'sub', 'deeper', 'written.txt'), 'after\n');
    await writeFile(join(dir, 'other.txt'), 'other\n');
    await rename(join(dir, 'other.txt'), join(dir, 'swapped.txt'));
    await rename(join(dir, 'moved'), join(dir, 'gone'));
    await rename(join(dir, 'elsewhere'), join(dir, 'moved'));
    await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));

    const paths = [
      'sub/deeper/old.txt',
      'sub/deeper/written.txt',
      'swapped.txt',
      'hard.txt',
      'moved/a.txt',
      'link.txt',
      'missing.txt',
    ];
    const opener = anchoredOpener(anchoredFilesIn(dir, paths));
    try {
      const answers = paths.map((_, i) => opener.unchangedSince(i, since));
      // Only the file nobody touched stands; `moved/a.txt` is an old file, but in a folder moved
      // there since (a reader before could have found another one).
      expect(answers).toEqual([true, false, false, false, false, false, false]);
      // Before everything changed: the hard link still does not (it is not a file the sandbox reads).
      expect(opener.unchangedSince(3, Date.now() + 60_000)).toBe(false);
      expect(opener.unchangedSince(0, Date.now() + 60_000)).toBe(true);
    } finally {
      opener.close();
    }
    // With hard links allowed, an unchanged second link stands like any file.
    const allowing = anchoredOpener(anchoredFilesIn(dir, ['hard.txt'], { hardLinks: 'allow' }));
    try {
      expect(allowing.unchangedSince(0, Date.now() + 60_000)).toBe(true);
    } finally {
      allowing.close();
    }
  });

  it('knows the local file systems whose ctime a change cannot escape', async () => {
    const dir = await tempDir();
    const { openSync, closeSync, statfsSync } = await import('node:fs');
    const fd = openSync(dir, 'r');
    try {
      // Read through the descriptor: ext4, tmpfs, overlayfs, XFS or Btrfs (a temp folder's usual homes) keep them.
      const usual = new Set([0xef53, 0x01021994, 0x794c7630, 0x58465342, 0x9123683e]);
      expect(keepsCtime(fd)).toBe(usual.has(statfsSync(dir).type));
    } finally {
      closeSync(fd);
    }
    expect(keepsCtime(-1)).toBe(false);
  });
});

describe.runIf(proc && ctimesKeptHere())(
  'anchoredOpener(): a file whose ctime proves its one link was its only one',
  () => {
    /** Opens, reads and settles each file as a worker's job does: what was kept, and how many names were checked. */
    function readAll(files: ReturnType<typeof anchoredFilesIn>, settledMs: number) {
      const opener = anchoredOpener(files, settledMs);
      const kept: string[] = [];
      try {
        files.names.forEach((name, i) => {
          const fd = opener.open(i);
          if (fd === undefined) return;
          const text = readFileSync(fd, 'utf8');
          opener.settle(i, fd, () => kept.push(`${name}: ${text.trim()}`));
        });
        opener.finish();
        return { kept, namesChecked: opener.namesChecked };
      } finally {
        opener.close();
      }
    }

    it('is kept without its name checked under the folder’s lock; a fresh one is checked, a second link refused', async () => {
      const dir = await tempDir();
      const outside = await tempDir();
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'a.txt'), 'alpha\n');
      await writeFile(join(dir, 'sub', 'b.txt'), 'beta\n');
      await writeFile(join(outside, 'secret.txt'), 'secret\n');
      await link(join(outside, 'secret.txt'), join(dir, 'sub', 'hard.txt'));
      await sleep(120); // every ctime now older than the opener by more than 50 ms
      const files = anchoredFilesIn(dir, ['sub/a.txt', 'sub/b.txt', 'sub/hard.txt']);
      const kept = ['a.txt: alpha', 'b.txt: beta'];

      const settled = readAll(files, 50);
      expect(settled).toEqual({ kept, namesChecked: 0 });
      // Changed within the slack: each name is checked under the folder's lock, as before.
      const fresh = readAll(files, 60_000);
      expect(fresh).toEqual({ kept, namesChecked: 2 });
    });
  },
);
