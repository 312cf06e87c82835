import { spawnSync } from 'node:child_process';
import { appendFile, mkdir, readFile, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchorRoots } from '../disk/anchor-roots';
import { sweepTempFiles } from './temp-journal';

const tempDir = useTempDirs();

/** The pid of a process that has exited: a writer that is gone. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

describe('sweepTempFiles', () => {
  it('removes temp files of writers that are gone, only through the workspace, and compacts the journal', async () => {
    const base = await realpath(await tempDir('familiar-sweep-'));
    const workspace = join(base, 'ws');
    const outside = join(base, 'outside');
    await mkdir(join(workspace, 'sub'), { recursive: true });
    await mkdir(outside);
    const stale = '.a.txt.familiar-0123456789ab.tmp';
    const live = '.b.txt.familiar-ba9876543210.tmp';
    await writeFile(join(workspace, 'sub', stale), 'half written');
    await writeFile(join(workspace, live), 'being written now');
    // A journal line naming a file the sweep must never remove: wrong name, and a path through a symlink out.
    await writeFile(join(workspace, 'notes.txt'), 'user file');
    await writeFile(join(outside, stale), 'outside file');
    await symlink(outside, join(workspace, 'escape'));
    const dead = deadPid();
    const journal = join(base, 'temp-files.jsonl');
    const line = (op: string, pid: number, dir: string, name: string) =>
      `${JSON.stringify({ op, pid, root: workspace, dir, name })}\n`;
    await appendFile(
      journal,
      line('add', dead, 'sub', stale) +
        line('add', process.pid, '', live) +
        line('add', dead, '', 'notes.txt') +
        line('add', dead, 'escape', stale) +
        '{"torn',
    );
    const roots = createAnchorRoots();
    try {
      expect(sweepTempFiles(journal, roots)).toBe(1);
    } finally {
      roots.closeAll();
    }
    expect(await readdir(join(workspace, 'sub'))).toEqual([]);
    expect((await readdir(workspace)).sort()).toEqual([live, 'escape', 'notes.txt', 'sub'].sort());
    expect(await readFile(join(outside, stale), 'utf8')).toBe('outside file');
    // Only the live writer's line is left.
    const kept = (await readFile(journal, 'utf8')).trim().split('\n');
    expect(kept.map((raw) => (JSON.parse(raw) as { name: string }).name)).toEqual([live]);
  });

  it('answers 0 when there is no journal yet', () => {
    expect(sweepTempFiles('/nonexistent/familiar/temp-files.jsonl')).toBe(0);
  });
});
