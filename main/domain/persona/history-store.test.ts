import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleChildScript } from '../../test-support/child-script';
import { useTempDirs } from '../../test-support/temp-dir';
import { openHistoryStore } from './history-store';

const tempDir = useTempDirs();

describe('persona history', () => {
  it('keeps versions newest first with author, conversation and reason, skipping no-op saves', async () => {
    const history = await openHistoryStore(await tempDir());
    await history.record('SOUL.md', { text: 'v1', author: 'user', reason: 'Initial version' });
    await history.record('SOUL.md', { text: 'v2', author: 'assistant', reason: 'Be bolder', conversationId: 'c1' });
    await history.record('SOUL.md', { text: 'v2', author: 'assistant', reason: 'same text again' });
    const versions = await history.list('SOUL.md');
    expect(versions.map((version) => [version.author, version.reason, version.chars])).toEqual([
      ['assistant', 'Be bolder', 2],
      ['user', 'Initial version', 2],
    ]);
    expect(versions[0]?.conversationId).toBe('c1');
    expect((await history.get('SOUL.md', versions[1]?.id ?? ''))?.text).toBe('v1');
    expect(await history.list('MEMORY.md')).toEqual([]);
  });

  it('is bounded: only the newest versions are kept', async () => {
    const dir = await tempDir();
    const history = await openHistoryStore(dir, 10);
    for (let index = 1; index <= 40; index++) {
      await history.record('MEMORY.md', { text: `v${index}`, author: 'assistant', reason: `r${index}` });
    }
    const versions = await history.list('MEMORY.md');
    expect(versions).toHaveLength(10);
    expect(versions[0]?.reason).toBe('r40');
    expect(versions.at(-1)?.reason).toBe('r31');
    const lines = (await readFile(join(dir, 'MEMORY.md.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(15);
  });

  it('keeps earlier history readable when a writer is killed while saving', { timeout: 30_000 }, async () => {
    const dir = await tempDir();
    const history = await openHistoryStore(dir, 20);
    await history.record('SOUL.md', { text: 'original', author: 'user', reason: 'Initial version' });
    // A separate process saving large versions in a loop, killed at a random moment, several times.
    const script = await bundleChildScript(`
      import { openHistoryStore } from ${JSON.stringify(join(import.meta.dirname, 'history-store.ts'))};
      const history = await openHistoryStore(${JSON.stringify(dir)}, 20);
      process.stdout.write('ready\\n');
      for (let i = 0; ; i++) await history.record('SOUL.md', { text: 'x'.repeat(200000) + i, author: 'assistant', reason: 'loop' });
    `);
    for (let round = 0; round < 4; round++) {
      const writer = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((resolve) => writer.once('exit', resolve));
      await new Promise((resolve) => writer.stdout.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, 40 + round * 35));
      writer.kill('SIGKILL');
      await exited;
    }
    const versions = await history.list('SOUL.md');
    expect(versions.length).toBeGreaterThan(0);
    const oldest = versions.at(-1);
    for (const summary of versions) {
      const version = await history.get('SOUL.md', summary.id);
      expect(version?.text.length).toBe(summary.chars);
    }
    // The original survives unless 20 newer versions pushed it out by the bound.
    if (versions.length < 20) expect(oldest?.reason).toBe('Initial version');
  });
});
