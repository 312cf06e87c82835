import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript } from '../test-support/child-script';
import { useTempDirs } from '../test-support/temp-dir';

const tempDir = useTempDirs();
let writerScript = '';

beforeAll(async () => {
  writerScript = await bundleChildScript(`
    import { writeForever } from ${JSON.stringify(join(import.meta.dirname, '..', 'test-support', 'crash-writer.child.ts'))};
    const [workspace, home, ...contentFiles] = process.argv.slice(2);
    await writeForever(workspace, home, contentFiles);
  `);
}, 60_000);

/** Starts the writer, waits for its first completed write, lets it run `ms` more, then SIGKILLs it. */
async function killMidWrite(args: string[], ms: number): Promise<void> {
  const child = spawn(process.execPath, [writerScript, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

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
