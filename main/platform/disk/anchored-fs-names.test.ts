import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchoredFs, isSoleLinkAt } from './anchored-fs';
import type { StatName } from './anchored-fs';
import { CTIME_SLACK_MS, isMultigrainKernel, mountTypeIn, stampsEveryChange } from './kept-ctime';

/**
 * How the sandbox confirms that a file it opened and fstat-ed with one link is still named as it
 * was opened (stillNamed / namedAfterListing): what the kernel calls the descriptor, in proc-fd mode.
 */
const tempDir = useTempDirs();
const { O_RDONLY, O_DIRECTORY } = constants;
/** Does the file system the temp folders live on stamp every change (Linux 6.13+: ext4, XFS, Btrfs, tmpfs)? */
const finelyStamped = (() => {
  const fd = openSync(tmpdir(), O_RDONLY | O_DIRECTORY);
  try {
    return stampsEveryChange(fd);
  } finally {
    closeSync(fd);
  }
})();

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
      // A file just written under a name ending in ' (deleted)' waits out the slack where this
      // kernel stamps changes coarsely (isStillNamedIn).
      const confirmed = !name.endsWith(' (deleted)') || stampsEveryChange(dir.fd);
      expect(anchored.stillNamed(fd, dir, name)).toBe(confirmed);
      expect(anchored.namedAfterListing(fd, dir, name)).toBe(confirmed);
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

  // Where changes within one clock tick share a stamp, the played race below keeps the ctime: there
  // such names wait out CTIME_SLACK_MS instead (the next test).
  it.runIf(finelyStamped)(
    'is not, when the name is renamed away and unlinked between the lookup and the count of its links',
    async () => {
      const { root, dir, fd, release } = await opened('x (deleted)');
      const d = join(root, 'd');
      linkSync(join(d, 'x (deleted)'), join(root, 'outside'));
      renameSync(join(d, 'x (deleted)'), join(d, 'x'));
      unlinkSync(join(d, 'x')); // the descriptor is now '<d>/x (deleted)', the file's one link outside
      // lstat's two moments, played out: another process links the file as 'x (deleted)' again; the
      // lookup finds it; that process renames it to 'x' and unlinks that; the count then reads the
      // outside link's one.
      const racedLstat: StatName = (path) => {
        linkSync(join(root, 'outside'), join(d, 'x (deleted)'));
        const found = lstatSync(path, { bigint: true });
        renameSync(join(d, 'x (deleted)'), join(d, 'x'));
        unlinkSync(join(d, 'x'));
        return Object.assign(found, { nlink: fstatSync(fd, { bigint: true }).nlink });
      };
      const path = `/proc/self/fd/${dir.fd}/x (deleted)`;
      expect(isSoleLinkAt(path, fd, { unchanged: true, statName: racedLstat })).toBe(false);
      release();
    },
  );

  it('is, under a name that ends in " (deleted)", only once unchanged for the slack where changes share a tick', async () => {
    const { dir, fd, release } = await opened('a.txt (deleted)');
    const path = `/proc/self/fd/${dir.fd}/a.txt (deleted)`;
    expect(isSoleLinkAt(path, fd, { unchanged: true })).toBe(true);
    expect(isSoleLinkAt(path, fd, { unchanged: true, changedBeforeMs: Date.now() - CTIME_SLACK_MS })).toBe(false);
    expect(isSoleLinkAt(path, fd, { unchanged: true, changedBeforeMs: Date.now() + CTIME_SLACK_MS })).toBe(true);
    release();
  });
});

describe('kernels that stamp every change a ctime read could miss', () => {
  it('are Linux 6.13 and later', () => {
    expect(['6.12.9', '5.15.0-91-generic', '4.19', '', 'x'].map(isMultigrainKernel)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['6.13.0', '6.18.44-fc-v782', '7.0.1'].map(isMultigrainKernel)).toEqual([true, true, true]);
  });

  it("are told by the mount's own type: ext3 shares ext4's magic number, not its stamps", () => {
    const mountinfo = [
      '26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard',
      '29 26 0:25 / /dev/shm rw,nosuid,nodev shared:3 master:1 - tmpfs tmpfs rw',
      '261 26 8:17 / /mnt/old rw,relatime shared:98 - ext3 /dev/sdb1 rw',
      '2610 26 0:50 / /mnt/x rw - overlay overlay rw',
    ].join('\n');
    expect(['26', '29', '261', '2610', '2', '1'].map((id) => mountTypeIn(mountinfo, id))).toEqual([
      'ext4',
      'tmpfs',
      'ext3',
      'overlay',
      '',
      '',
    ]);
  });
});
