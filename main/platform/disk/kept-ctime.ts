import * as fs from 'node:fs';

/**
 * Linux file systems that stamp every change with this kernel's clock, in nanoseconds: ext2/3/4,
 * XFS, Btrfs, tmpfs, overlayfs, F2FS, ZFS, bcachefs (statfs f_type). Network and FUSE file systems
 * take another machine's clock, or none, so a ctime there proves nothing about when.
 */
const KEPT = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1, 0xca451a4e]);

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
