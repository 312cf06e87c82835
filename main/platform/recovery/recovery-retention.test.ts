import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { pruneRecoveryStore } from './recovery-retention';

const tempDir = useTempDirs();
const day = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-11-25T12:00:00.000Z');

/** Slots named as the store names them ('YYYY-MM-DD/HHMMSS-mmmZ-<random>'), `bytes` each. */
async function store(ages: readonly number[], bytes = 10): Promise<string> {
  const dir = await tempDir('familiar-backups-');
  for (const [index, age] of ages.entries()) {
    const stamp = new Date(now - age).toISOString().replaceAll(':', '').replace('.', '-');
    const slot = join(dir, stamp.slice(0, 10), `${stamp.slice(11)}-0000000${index}`);
    await mkdir(slot, { recursive: true });
    await writeFile(join(slot, 'file.txt'), 'x'.repeat(bytes));
    await writeFile(join(slot, 'restore.json'), '{}');
  }
  await mkdir(join(dir, 'not-a-day'));
  return dir;
}

async function kept(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const folder of (await readdir(dir)).sort()) {
    if (!/^\d{4}-/.test(folder)) continue;
    for (const slot of await readdir(join(dir, folder))) names.push(slot.slice(-1));
  }
  return names.sort();
}

describe('pruneRecoveryStore', () => {
  it('keeps the newest items up to the count', async () => {
    const dir = await store([1000, 2000, 3000, 4000]);
    expect(await pruneRecoveryStore(dir, { maxItems: 2, maxBytes: 1e9, maxAgeDays: 30 }, now)).toBe(2);
    expect(await kept(dir)).toEqual(['0', '1']);
  });

  it('drops items older than the age limit and beyond the byte limit, and nothing it does not recognise', async () => {
    const aged = await store([1000, 2 * day, 40 * day]);
    expect(await pruneRecoveryStore(aged, { maxItems: 100, maxBytes: 1e9, maxAgeDays: 30 }, now)).toBe(1);
    expect(await kept(aged)).toEqual(['0', '1']);
    expect((await readdir(aged)).includes('not-a-day')).toBe(true);
    // Each slot holds 100 + 2 bytes: two fit in 250, the third does not.
    const big = await store([1000, 2000, 3000], 100);
    expect(await pruneRecoveryStore(big, { maxItems: 100, maxBytes: 250, maxAgeDays: 30 }, now)).toBe(1);
    expect(await kept(big)).toEqual(['0', '1']);
  });
});
