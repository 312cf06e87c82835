import * as fs from 'node:fs';
import * as os from 'node:os';

/**
 * Linux file systems that stamp every change with this kernel's clock: ext2/3/4, XFS, Btrfs, tmpfs,
 * overlayfs, F2FS, ZFS, bcachefs (statfs f_type); in nanoseconds, but in whole seconds on ext2/3 and
 * ext4 with small inodes (CTIME_SLACK_MS). Network and FUSE file systems take another machine's
 * clock, or none, so a ctime there proves nothing about when.
 */
const KEPT = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1, 0xca451a4e]);

/**
 * How close to a moment a ctime may be and still say nothing changed since: file systems stamp
 * changes from a clock that runs up to a tick (10 ms) behind, some in whole seconds. A file changed
 * this recently is simply judged the slower way. A clock stepped back by more than this while a
 * search runs would defeat the rule (SECURITY.md).
 */
export const CTIME_SLACK_MS = 2000;

/**
 * Does the file system of the folder held as `fd` keep ctimes a change here cannot escape (see
 * anchored-opener.ts unchangedSince)? Linux only; false when it cannot tell.
 */
export function keepsCtime(fd: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return KEPT.has(fs.statfsSync(`/proc/self/fd/${fd}`).type);
  } catch {
    return false;
  }
}

/**
 * A judge, made before any file is opened, of whether a file opened through its name then had one
 * link that was its only one at the open: its stats (fstat after the open) show one link and a ctime
 * older than `settledMs` before the judge was made. Adding or removing a link sets the ctime, which
 * cannot be set back without privileges, so no link came or went between the open and the fstat.
 * In proc-fd mode only, on the root's own file system (a folder mounted from elsewhere keeps another
 * clock) where ctimes are kept (keepsCtime, asked once, at the first file judged). A clock stepped
 * back by more than the slack meanwhile would defeat it, as it would the count checks (SECURITY.md).
 */
export function linkedAloneSince(
  mode: 'proc-fd' | 'checked-path',
  root: { readonly fd: number; readonly dev: number },
  settledMs = CTIME_SLACK_MS,
): (stats: fs.Stats) => boolean {
  const settledBefore = Date.now() - settledMs;
  let ctimesKept: boolean | undefined;
  return (stats) => {
    if (mode !== 'proc-fd') return false;
    if (stats.nlink !== 1 || stats.dev !== root.dev || stats.ctimeMs >= settledBefore) return false;
    ctimesKept ??= keepsCtime(root.fd);
    return ctimesKept;
  };
}

/**
 * File systems that, on Linux 6.13 and later, stamp a file's next change with a fine-grained time
 * once its ctime has been read (multigrain timestamps): a ctime read twice and found the same then
 * proves nothing changed the file in between, however fast (anchored-fs.ts isSoleLinkAt). Named as
 * mounted: ext2 and ext3 share ext4's magic number but not its multigrain stamps. Elsewhere changes
 * within one clock tick share a stamp.
 */
const MULTIGRAIN = new Set(['ext4', 'xfs', 'btrfs', 'tmpfs']);

/** Is `release` (os.release()) a Linux kernel of 6.13 or later? */
export function isMultigrainKernel(release: string): boolean {
  const [major = 0, minor = 0] = (/^(\d+)\.(\d+)/.exec(release) ?? []).slice(1).map(Number);
  return major > 6 || (major === 6 && minor >= 13);
}

const multigrainKernel = process.platform === 'linux' && isMultigrainKernel(os.release());

/**
 * The type of mount `mountId` in `mountinfo` (/proc/self/mountinfo: "<id> <parent> <major:minor>
 * <root> <mount point> <options> [<tags>...] - <type> <source> <super options>"), '' when absent.
 */
export function mountTypeIn(mountinfo: string, mountId: string): string {
  const line = mountinfo.split('\n').find((entry) => entry.startsWith(`${mountId} `));
  return line?.split(' - ')[1]?.split(' ')[0] ?? '';
}

/**
 * Does the file system holding the folder `fd` stamp every change a ctime read could miss? Asked
 * afresh each time (only for names ending in ' (deleted)'): a mount id is reused after an unmount.
 */
export function stampsEveryChange(fd: number): boolean {
  if (!multigrainKernel) return false;
  try {
    const mountId = /^mnt_id:\s*(\d+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'))?.[1];
    return (
      mountId !== undefined && MULTIGRAIN.has(mountTypeIn(fs.readFileSync('/proc/self/mountinfo', 'utf8'), mountId))
    );
  } catch {
    return false;
  }
}
