import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../tools/edit-file';
import { listFilesTool } from '../../tools/list-files';
import { readFileTool } from '../../tools/read-file';
import { makePdf, makePng } from '../../test-support/media-fixtures';
import { useToolKits } from '../../test-support/use-tool-kits';
import { writeFileTool } from '../../tools/write-file';
import { toToolResultView, VIEW_VALUE_CAP_CHARS } from './tool-result-view';

const newKit = useToolKits();

// The views are built from what the real tools return, so the card shows what a user will see.
describe('toToolResultView over the real file tools', () => {
  it('keeps the diff edit_file returns and sums it up in one line', async () => {
    const kit = await newKit({ files: { 'notes.md': 'one\ntwo\nthree\n' } });
    const result = await kit.call(editFileTool, { path: 'notes.md', oldText: 'two', newText: 'TWO\nand a half' });
    const view = toToolResultView(result);
    expect(view).toMatchObject({ ok: true, summary: 'notes.md: +2 −1 lines' });
    expect(view.truncated).toBeUndefined();
    expect((view.value as { diff: string }).diff).toContain('-two\n+TWO\n+and a half\n');
  });

  it('cuts a long diff inside the object, so the page still gets a diff', async () => {
    const kit = await newKit();
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    await writeFile(join(kit.workspace, 'big.txt'), 'start\n');
    const result = await kit.call(editFileTool, { path: 'big.txt', oldText: 'start', newText: long });
    const view = toToolResultView(result);
    expect(view.truncated).toBe(true);
    expect(JSON.stringify(view.value).length).toBeLessThanOrEqual(VIEW_VALUE_CAP_CHARS);
    const value = view.value as { path: string; diff: string };
    expect(value.path).toBe('big.txt');
    expect(value.diff.startsWith('--- big.txt\n+++ big.txt\n@@')).toBe(true);
    expect(view.summary).toBe('big.txt: +400 −1 lines');
  });

  it('gives the code in the summary and the whole message (closest lines) as the value on no_match', async () => {
    const kit = await newKit({ files: { 'notes.md': 'alpha\nbeta gamma\n' } });
    const result = await kit.call(editFileTool, { path: 'notes.md', oldText: 'beta gama', newText: 'x' });
    const view = toToolResultView(result);
    expect(view.ok).toBe(false);
    expect(view.code).toBe('no_match');
    expect(view.summary.startsWith('no_match: ')).toBe(true);
    expect(view.value).toContain('beta gamma');
  });

  it('sums up writes, reads and listings from their fields', async () => {
    const kit = await newKit();
    const written = await kit.call(writeFileTool, { path: 'a.txt', content: 'hello\nworld\n' });
    expect(toToolResultView(written).summary).toBe('a.txt: created, 12 bytes');
    const read = await kit.call(readFileTool, { path: 'a.txt' });
    expect(toToolResultView(read).summary).toMatch(/^a\.txt: lines 1–\d of \d$/);
    const listed = await kit.call(listFilesTool, { path: '.' });
    expect(toToolResultView(listed).summary).toBe('.: 1 entry');
  });

  it('shows a picture read_file returns by its facts, never its bytes, and a PDF by its pages', async () => {
    const kit = await newKit({ files: { 'shot.png': makePng(300, 200) } });
    const image = toToolResultView(await kit.call(readFileTool, { path: 'shot.png' }));
    expect(image).toMatchObject({ ok: true, summary: 'shot.png: 300×200 image', value: { kind: 'image', width: 300 } });
    expect(image.value).not.toHaveProperty('data');
    await writeFile(join(kit.workspace, 'r.pdf'), makePdf([['one'], ['two']]));
    const pdf = toToolResultView(await kit.call(readFileTool, { path: 'r.pdf' }));
    expect(pdf).toMatchObject({ ok: true, summary: 'r.pdf: pages 1–2 of 2' });
  });
});
