import { existsSync, readdirSync, rmSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { alive } from './temp-journal';

/** How much of the backups is kept: the newest items first, until one of the limits is reached. */
export interface RecoveryRetention {
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly maxAgeDays: number;
}

export const defaultBackupRetention: RecoveryRetention = {
  maxItems: 1000,
  maxBytes: 1024 * 1024 * 1024,
  maxAgeDays: 30,
};

/** What says where a kept item came from; written last, so a slot without it is not whole. */
export const manifestName = 'restore.json';

interface Slot {
  readonly path: string;
  /**
   * Slots are named by their UTC time and the writing process: 'YYYY-MM-DD/HHMMSS-mmmZ-<pid>-<random>'
   * (before issue 33 without the pid).
   */
  readonly name: string;
  readonly at: number;
  bytes: number;
}

async function sizeOf(path: string): Promise<number> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const name of await readdir(path).catch(() => [] as string[])) total += await sizeOf(join(path, name));
  return total;
}

const dayName = /^\d{4}-\d{2}-\d{2}$/;
const slotName = /^\d{6}-\d{3}Z-(?:(\d+)-)?[0-9a-f]{8}$/;

const slotTime = (day: string, name: string): number => {
  // '2026-11-25' + '031501-123Z-ab12cd34' → 2026-11-25T03:15:01.123Z
  const match = /^(\d{2})(\d{2})(\d{2})-(\d{3})Z/.exec(name);
  if (match === null) return Number.NaN;
  return Date.parse(`${day}T${match[1]}:${match[2]}:${match[3]}.${match[4]}Z`);
};

/**
 * Removes the oldest kept items beyond the limits (count, total bytes, age). Answers how many
 * items were removed. Only slot folders it recognises by name are ever removed.
 */
export async function pruneRecoveryStore(dir: string, retention: RecoveryRetention, now = Date.now()): Promise<number> {
  const slots: Slot[] = [];
  for (const day of await readdir(dir).catch(() => [] as string[])) {
    if (!dayName.test(day)) continue;
    for (const name of await readdir(join(dir, day)).catch(() => [] as string[])) {
      const at = slotTime(day, name);
      if (Number.isNaN(at)) continue;
      slots.push({ path: join(dir, day, name), name: `${day}/${name}`, at, bytes: 0 });
    }
  }
  slots.sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1));
  const oldest = now - retention.maxAgeDays * 24 * 60 * 60 * 1000;
  let kept = 0;
  let bytes = 0;
  let removed = 0;
  let full = false;
  for (const slot of slots) {
    slot.bytes = full ? 0 : await sizeOf(slot.path);
    // Once one item does not fit, every older one goes too: what is kept is always the newest.
    full ||= kept >= retention.maxItems || bytes + slot.bytes > retention.maxBytes || slot.at < oldest;
    if (!full) {
      kept += 1;
      bytes += slot.bytes;
      continue;
    }
    await rm(slot.path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Removes the slots a killed writer left without their `restore.json` (issue 33): a copy cut short,
 * or whole but never described, that a person restoring would take for the file. Run at start, before
 * this process makes a slot; a slot whose writer (the pid in its name) still runs is another
 * process's copy in progress on the same home (the app and an MCP server) and stays. Answers how many
 * slots were removed. Only folders it recognises by name are ever removed, and never one that has its
 * `restore.json`.
 */
export function sweepIncompleteSlots(dir: string, writerAlive: (pid: number) => boolean = alive): number {
  let removed = 0;
  const list = (path: string) => {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  };
  for (const day of list(dir)) {
    if (!dayName.test(day)) continue;
    for (const name of list(join(dir, day))) {
      const match = slotName.exec(name);
      if (match === null) continue;
      const path = join(dir, day, name);
      if (existsSync(join(path, manifestName))) continue;
      if (match[1] !== undefined && writerAlive(Number(match[1]))) continue;
      try {
        rmSync(path, { recursive: true, force: true });
        removed += 1;
      } catch {
        // Left for the next start: a start must not fail for a leftover.
      }
    }
  }
  return removed;
}
