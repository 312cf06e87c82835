import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useKillableChild } from '../test-support/kill-after-ready';
import { useTempDirs } from '../test-support/temp-dir';

const tempDir = useTempDirs();
/** Started, left to work a while, then SIGKILLed. */
const killMidWrite = useKillableChild('crash-writer.child.ts', 'writeForever');

describe('write_file under SIGKILL', () => {
  it('leaves the old or the new content, never a mix, however often the writer is killed', async () => {
    const root = await tempDir();
    const workspace = join(root, 'project');
    const home = join(root, 'home');
    await mkdir(join(home, 'workspace'), { recursive: true });
    await mkdir(workspace);
    // Two 4 MB contents that differ in every line, so any torn write would show.
    const make = (letter: string) =>
      Array.from({ length: 64 * 1024 }, (_, i) => `${letter}${String(i).padStart(62, letter)}`).join('\n');
    const [a, b] = [make('a'), make('b')];
    const initial = 'the original content\n';
    await writeFile(join(workspace, 'big.txt'), initial);
    await writeFile(join(root, 'a.txt'), a);
    await writeFile(join(root, 'b.txt'), b);
    // The writer spends nearly all its time inside write_file (4 MB + fdatasync per call), so each
    // kill lands in the middle of one: before, during or after the rename.
    for (const ms of [5, 37, 90, 13, 160, 61]) {
      await killMidWrite([workspace, home, join(root, 'a.txt'), join(root, 'b.txt')], ms);
      const content = await readFile(join(workspace, 'big.txt'), 'utf8');
      expect([initial, a, b]).toContain(content);
    }
  }, 120_000);
});
