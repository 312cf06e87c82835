import { readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/create-core';
import type { Core } from '../../core/create-core';
import { createStderrLogger } from '../logging/logger';
import type { ApprovalMode } from '../../tool-calls/ask';
import { createRaceLayout, snapshotOutside, startSwapper, stopSwapper } from '../../test-support/race-layout';
import type { RaceLayout } from '../../test-support/race-layout';

/**
 * The race suite: every tool that touches the disk, thousands of calls each, while a second process
 * keeps swapping workspace folders and files for symlinks to an outside folder full of marked
 * secrets, planting hard links to outside files and dangling links where a creation would land
 * outside. Under the default policy (what needs approval is refused, as in MCP mode) and under
 * approve-all. It asserts what the sandbox promises: no answer holds a byte of outside content, the
 * outside is unchanged (nothing created, changed, moved, linked; no temp files), and legitimate
 * calls on untouched paths still succeed every time.
 */
// `npm test` runs 150 calls per tool to stay quick; `npm run test:race` runs 5,000.
const operations = Number(process.env['FAMILIAR_RACE_OPS'] ?? 150);

type Args = (i: number) => unknown;
const pick = <T>(i: number, values: readonly T[]): T => values[i % values.length]!;

// The swapped names: 'a' (folder <-> link to outside), 'f.txt' (file <-> link), 'h.txt' (hard link
// to an outside file), 'new.txt' (dangling link to outside), the persona folder's memory/.
const swapped = ['a/f.txt', 'f.txt', 'h.txt', 'a/deep/g.txt', 'new.txt', 'a', 'a/deep'];

/** Calls aimed at the swapped names, one per tool. */
const attacks: Record<string, Args> = {
  read_file: (i) => ({ path: pick(i, swapped) }),
  write_file: (i) => ({ path: pick(i, ['a/w.txt', 'new.txt', 'f.txt', 'h.txt', 'a/deep/w.txt']), content: `w${i}\n` }),
  edit_file: (i) => ({
    path: pick(i, ['a/f.txt', 'f.txt', 'h.txt', 'a/deep/g.txt']),
    oldText: 'alpha',
    newText: 'alpha!',
  }),
  list_files: (i) => ({ path: pick(i, ['.', 'a', 'a/deep']), recursive: i % 2 === 0 }),
  search_in_code: (i) => ({ query: 'needle', path: pick(i, ['.', 'a', 'f.txt', 'h.txt', 'a/deep']) }),
  get_file_info: (i) => ({ path: pick(i, swapped) }),
  create_directory: (i) => ({ path: pick(i, ['a/d', 'a/deep/d', 'new.txt', 'memory/d']) + String(i % 7) }),
  move_file: (i) =>
    i % 2 === 0
      ? { source: 'a/m.txt', destination: 'a/deep/m.txt' }
      : { source: 'a/deep/m.txt', destination: 'a/m.txt' },
  delete_file: (i) => ({ path: pick(i, ['a/w.txt', 'new.txt', 'h.txt', 'a/deep/w.txt', 'f.txt']) }),
  run_command: (i) => ({ command: 'ls', cwd: pick(i, ['a', 'a/deep', 'memory']) }),
  git_status: () => ({}),
  git_diff: (i) => ({ path: pick(i, [undefined, 'a', 'f.txt', 'h.txt']) }),
  git_commit: (i) => ({ message: `c${i}`, paths: [pick(i, ['a/w.txt', 'f.txt', 'h.txt', 'new.txt'])] }),
  file_download: (i) => ({ path: pick(i, swapped) }),
  file_semantic_search: () => ({ query: 'needle alpha', top_k: 10 }),
  memory_search: () => ({ query: 'needle alpha' }),
  // Today's note only grows (and history keeps each version): every tenth call, so 5,000 stay quick.
  memory_append: (i) => ({ text: `needle appended ${i}`, file: i % 10 === 1 ? 'today' : 'MEMORY.md' }),
  file_upload: (i) => ({ name: `up${i % 50}.txt`, content: 'uploaded\n' }),
};

/** Calls on names the swapper never touches: these must succeed (or ask, where the policy asks). */
const legit: Record<string, Args> = {
  read_file: () => ({ path: 'stable/s.txt' }),
  write_file: (i) => ({ path: 'stable/w.txt', content: `w${i}\n` }),
  edit_file: (i) =>
    Math.floor(i / 4) % 2 === 0
      ? { path: 'stable/e.txt', oldText: 'one', newText: 'two' }
      : { path: 'stable/e.txt', oldText: 'two', newText: 'one' },
  list_files: () => ({ path: 'stable' }),
  search_in_code: () => ({ query: 'needle', path: 'stable' }),
  get_file_info: () => ({ path: 'stable/s.txt' }),
  create_directory: (i) => ({ path: `stable/d${i}` }),
  move_file: (i) =>
    Math.floor(i / 4) % 2 === 0
      ? { source: 'stable/mv.txt', destination: 'stable/mv2.txt' }
      : { source: 'stable/mv2.txt', destination: 'stable/mv.txt' },
  delete_file: () => ({ path: 'stable/del.txt' }),
  run_command: () => ({ command: 'ls', cwd: 'stable' }),
  git_status: () => ({}),
  git_diff: () => ({ path: 'stable' }),
  git_commit: (i) => ({ message: `s${i}`, paths: ['stable/w.txt'] }),
  file_download: () => ({ path: 'stable/s.txt' }),
  file_semantic_search: () => ({ query: 'stable' }),
  memory_search: () => ({ query: 'memory' }),
  memory_append: (i) => ({ text: `legit ${i}` }),
  file_upload: (i) => ({ name: `legit${i % 50}.txt`, content: 'legit\n' }),
};

/** What a legitimate call needs on disk first (written by the test, not by the tool under test). */
const legitSetup: Record<string, (layout: RaceLayout, i: number) => void> = {
  delete_file: (layout) => writeFileSync(join(layout.workspace, 'stable', 'del.txt'), 'delete me\n'),
  git_commit: (layout, i) => writeFileSync(join(layout.workspace, 'stable', 'w.txt'), `commit ${i}\n`),
};

/**
 * Before every call of a tool. MEMORY.md is put back to a few lines: thousands of appends would
 * make each history record (which keeps the whole text) the slow part of this suite.
 */
const everySetup: Record<string, (layout: RaceLayout) => void> = {
  memory_append: (layout) => writeFileSync(join(layout.personaDir, 'MEMORY.md'), '# Memory\n\nneedle memory alpha\n'),
};

/** What a legitimate call may answer under each policy: the tool's result, or the policy's question. */
const legitOutcomes = (mode: ApprovalMode): readonly string[] =>
  mode === 'approve-all' ? ['ok'] : ['ok', 'approval_required'];

for (const mode of ['refuse', 'approve-all'] as const) {
  describe(`the sandbox under a swapper (${mode === 'refuse' ? 'default policy' : 'approve-all'}), ${operations} calls per tool`, () => {
    let layout: RaceLayout;
    let core: Core;
    let swapper: ChildProcess;
    let before: string[];

    beforeAll(async () => {
      // One folder for the whole block (the per-test temp folders of useTempDirs go after each test).
      layout = createRaceLayout(await realpath(await mkdtemp(join(tmpdir(), 'familiar-race-'))));
      writeFileSync(join(layout.workspace, 'stable', 'e.txt'), 'one\n');
      writeFileSync(join(layout.workspace, 'stable', 'mv.txt'), 'move me\n');
      before = snapshotOutside(layout.outside);
      core = await createCore({
        home: layout.home,
        workspace: layout.workspace,
        mode: 'browser',
        version: '0.0.0-test',
        logger: createStderrLogger('race', () => undefined),
        approvalMode: mode,
        toolLimits: { callsPerMinute: 1_000_000 },
      });
      swapper = await startSwapper(layout);
    }, 60_000);

    afterAll(async () => {
      if (swapper !== undefined) await stopSwapper(swapper, layout);
      await core?.dispose('race over');
      await rm(layout.root, { recursive: true, force: true, maxRetries: 5 });
    });

    it.each(Object.keys(attacks))(
      '%s: no outside byte in any answer; legitimate calls succeed',
      async (tool) => {
        const outcomes = new Map<string, number>();
        const failedLegit: string[] = [];
        for (let i = 0; i < operations; i += 1) {
          const isLegit = i % 4 === 3;
          everySetup[tool]?.(layout);
          if (isLegit) legitSetup[tool]?.(layout, i);
          const args = (isLegit ? legit : attacks)[tool]!(i);
          const result = await core.assistant.toolCalls.execute(
            { conversationId: `race-${tool}`, toolCallId: `${tool}-${i}`, name: tool, args },
            new AbortController().signal,
          );
          const answer = JSON.stringify(result);
          // The one assertion that matters, on every call: nothing of the outside came back.
          if (answer.includes(layout.marker))
            expect.fail(`${tool} ${JSON.stringify(args)} answered outside content: ${answer.slice(0, 400)}`);
          const code = result.ok ? 'ok' : result.error.code;
          outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
          if (isLegit && !legitOutcomes(mode).includes(code))
            failedLegit.push(`${JSON.stringify(args)} → ${answer.slice(0, 300)}`);
        }
        expect(failedLegit, `legitimate calls that failed (outcomes: ${JSON.stringify([...outcomes])})`).toEqual([]);
      },
      900_000,
    );

    it('left the outside exactly as it was: nothing created, changed, moved or linked, no temp files', async () => {
      await stopSwapper(swapper, layout);
      expect(snapshotOutside(layout.outside)).toEqual(before);
      const temps = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory()
            ? temps(join(dir, entry.name))
            : entry.name.includes('.familiar-')
              ? [join(dir, entry.name)]
              : [],
        );
      expect(temps(layout.workspace)).toEqual([]);
    });
  });
}
