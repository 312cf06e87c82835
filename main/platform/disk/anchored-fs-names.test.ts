import { closeSync, constants, linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchoredFs } from './anchored-fs';

/**
 * How the sandbox confirms that a file it opened and fstat-ed with one link is still named as it
 * was opened (stillNamed / namedAfterListing): what the kernel calls the descriptor, in proc-fd mode.
 */
const tempDir = useTempDirs();
const { O_RDONLY } = constants;

describe.runIf(createAnchoredFs().mode === 'proc-fd')('a descriptor still named as it was opened', () => {
  async function opened(name: string) {
    const root = await tempDir();
    mkdirSync(join(root, 'd'));
    mkdirSync(join(root, 'e'));
    writeFileSync(join(root, 'd', name), 'text\n');
    const anchored = createAnchoredFs('proc-fd');
    const top = anchored.openRoot(root);
    const dir = anchored.openDir(top, 'd');
    const fd = anchored.openFile(dir, name, O_RDONLY);
    const release = () => {
      closeSync(fd);
      anchored.close(dir);
      anchored.close(top);
    };
    return { root, anchored, dir, fd, release };
  }

  it('is confirmed in place, also under a name that ends in " (deleted)"', async () => {
    for (const name of ['a.txt', 'a.txt (deleted)']) {
      const { anchored, dir, fd, release } = await opened(name);
      expect(anchored.stillNamed(fd, dir, name)).toBe(true);
      expect(anchored.namedAfterListing(fd, dir, name)).toBe(true);
      release();
    }
  });

  it('is not, once moved into another folder under the same name', async () => {
    const { root, anchored, dir, fd, release } = await opened('a.txt');
    renameSync(join(root, 'd', 'a.txt'), join(root, 'e', 'a.txt'));
    expect(anchored.stillNamed(fd, dir, 'a.txt')).toBe(false);
    expect(anchored.namedAfterListing(fd, dir, 'a.txt')).toBe(false);
    release();
  });

  it('is not, once renamed from "x (deleted)" to "x" and unlinked, though "x (deleted)" names a file again', async () => {
    const { root, anchored, dir, fd, release } = await opened('x (deleted)');
    const d = join(root, 'd');
    linkSync(join(d, 'x (deleted)'), join(root, 'outside')); // the file lives on outside the folder
    renameSync(join(d, 'x (deleted)'), join(d, 'x'));
    unlinkSync(join(d, 'x'));
    linkSync(join(root, 'outside'), join(d, 'x (deleted)')); // back under the name, with two links
    expect(anchored.stillNamed(fd, dir, 'x (deleted)')).toBe(false);
    expect(anchored.namedAfterListing(fd, dir, 'x (deleted)')).toBe(false);
    release();
  });
});
