import * as fs from 'node:fs';

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
