import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { NgramIndexes } from '../domain/search/ngram/ngram-indexes';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import { createStderrLogger } from '../platform/logging/logger';
import { searchAhead } from './search-ahead';
import { useMcpTestSessions } from '../test-support/mcp-session-kit';
import { useTempDirs } from '../test-support/temp-dir';

const tempDir = useTempDirs();
const session = useMcpTestSessions();

type Found = { engine?: string; index?: { state?: string } };

describe('what a workspace’s first search needs, made ahead as it opens', () => {
  /** An opener on a stand-in index list (what it is asked to open), a short delay. */
  function opener(enabled = true) {
    const openSaved = vi.fn();
    const prestartRipgrep = vi.fn(() => Promise.resolve());
    let generation = 0;
    const drop = vi.fn(() => void (generation += 1));
    const env = { workspaceRoot: '/work/space', sandbox: {} } as unknown as ToolEnvironment;
    const made = searchAhead({
      services: { ngramIndexes: { openSaved } as unknown as NgramIndexes, searchIndexEnabled: () => enabled },
      environment: () => Promise.resolve(env),
      logger: createStderrLogger('test', () => undefined),
      delayMs: 20,
      ripgrepAhead: { generation: () => generation, prestart: prestartRipgrep, drop },
    });
    return { ...made, openSaved, prestartRipgrep, drop, env };
  }
  const moment = () => new Promise((resolve) => setTimeout(resolve, 80));

  it('opens once a moment after the workspace opens, the last opening only', async () => {
    const { opened, openSaved, prestartRipgrep, drop, prestartNow, env } = opener();
    opened();
    opened();
    // The sandbox of the folder open before is dropped at each opening; none is made unasked.
    expect(drop).toHaveBeenCalledTimes(2);
    expect(openSaved).not.toHaveBeenCalled();
    await moment();
    expect(openSaved.mock.calls).toEqual([['/work/space', {}]]);
    expect(prestartRipgrep).not.toHaveBeenCalled();
    // Asked (an MCP client's handshake done): ripgrep's sandbox for the workspace as it is now, as
    // of the drops so far (one opened after would leave it unmade).
    prestartNow();
    await vi.waitFor(() => expect(prestartRipgrep.mock.calls).toEqual([[env, 2]]));
    // Once asked, a folder opened after (an MCP client's roots) gets its own.
    opened();
    expect(drop).toHaveBeenCalledTimes(3);
    await vi.waitFor(() =>
      expect(prestartRipgrep.mock.calls).toEqual([
        [env, 2],
        [env, 3],
      ]),
    );
  });

  it('opens nothing once disposed (the app ending), nor where the index is off in settings', async () => {
    const ending = opener();
    ending.opened();
    ending.dispose();
    ending.opened();
    ending.prestartNow();
    const off = opener(false);
    off.opened();
    await moment();
    expect(ending.openSaved).not.toHaveBeenCalled();
    expect(ending.prestartRipgrep).not.toHaveBeenCalled();
    expect(ending.drop).toHaveBeenCalledTimes(3); // opened, disposed, opened
    expect(off.openSaved).not.toHaveBeenCalled();
  });
});

describe('a saved search index after a restart', () => {
  it('is opened and refreshed as the workspace opens, so the first search of the new run answers from it', async () => {
    const home = await tempDir();
    const workspace = await tempDir();
    for (let at = 0; at < 20; at += 1) {
      await mkdir(join(workspace, `dir-${at}`), { recursive: true });
      await writeFile(join(workspace, `dir-${at}`, 'notes.txt'), at === 7 ? 'the rareword is here\n' : 'nothing\n');
    }
    // The run before: its searches build the index, which saves itself once built.
    const before = await session({ home, workspace });
    for (let asked = 0; ; asked += 1) {
      const found = await before.client.callTool({ name: 'search_in_code', arguments: { query: 'rareword' } });
      if ((found.structuredContent as Found).index?.state === 'ready') break;
      expect(asked).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await before.client.close();
    await before.core.dispose('restart');

    const opening = vi.spyOn(NgramIndexes.prototype, 'openSaved');
    try {
      const after = await session({ home, workspace });
      // No call yet: the workspace's opening opened its index, and the refresh that follows ran.
      await vi.waitFor(() => expect(opening).toHaveBeenCalledTimes(1), { timeout: 5000 });
      const indexes = opening.mock.contexts[0] as NgramIndexes;
      const root = opening.mock.calls[0]![0];
      expect(await indexes.for(root).settled()).toMatchObject({ state: 'ready', files: 20 });
      const first = await after.client.callTool({ name: 'search_in_code', arguments: { query: 'rareword' } });
      expect(first.structuredContent).toMatchObject({ engine: 'index', total_matches: 1 });
    } finally {
      opening.mockRestore();
    }
  });
});
