import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';
import type { AnyTool } from '../tools/define-tool';
import { readFileTool } from '../tools/read-file';
import { writeFileTool } from '../tools/write-file';

const tempDir = useTempDirs();
let calls: ToolCallsKit;
afterEach(() => calls.kit.dispose());

/** The two search indexes' change notes, spied on the kit's real services. */
async function spiedKit() {
  calls = await createToolCallsKit(tempDir, [readFileTool, writeFileTool] as AnyTool[]);
  const { env } = calls.kit;
  return {
    trigram: vi.spyOn(env.ngramIndexes!, 'noteChanged'),
    semantic: vi.spyOn(env.searchIndexes!, 'noteChanged'),
  };
}

describe('the record stage tells the search indexes of writes', () => {
  it('marks what an approved write changed, once, in both indexes', async () => {
    const { trigram, semantic } = await spiedKit();
    const written = await calls.call('write_file', { path: 'notes/a.md', content: 'hello' });
    expect(written.ok).toBe(true);
    expect(trigram).toHaveBeenCalledTimes(1);
    expect(trigram).toHaveBeenCalledWith(calls.kit.env.workspaceRoot, ['notes/a.md']);
    expect(semantic).toHaveBeenCalledTimes(1);
    expect(semantic.mock.calls[0]?.[1]).toBe('notes/a.md');
  });

  it('says nothing for a read, or for a write the user rejected', async () => {
    const { trigram, semantic } = await spiedKit();
    await calls.call('write_file', { path: 'a.md', content: 'x' });
    trigram.mockClear();
    semantic.mockClear();
    expect((await calls.call('read_file', { path: 'a.md' })).ok).toBe(true);
    calls.answer = 'reject';
    const rejected = await calls.call('write_file', { path: 'b.md', content: 'y' });
    expect(rejected.ok || rejected.error.code).toBe('user_rejected');
    expect(trigram).not.toHaveBeenCalled();
    expect(semantic).not.toHaveBeenCalled();
  });
});
