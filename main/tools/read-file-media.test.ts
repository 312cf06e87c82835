import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './read-file';
import type { ReadFileOutput } from './read-file';
import type { Result } from '../../shared/result';
import { makeGifHeader, makeJpegHeader, makePdf, makePng, makeWebpHeader } from '../test-support/media-fixtures';
import { matching } from '../test-support/tool-kit';
import { useToolKits } from '../test-support/use-tool-kits';

const newKit = useToolKits();

/** A kit whose workspace holds report.pdf, the three-page PDF. */
async function kitWithReport(options?: Parameters<typeof newKit>[0]) {
  const kit = await newKit(options);
  await writeFile(join(kit.workspace, 'report.pdf'), makePdf(threePages));
  return kit;
}

/** The three pages every PDF test reads: text, a page without a text layer (scanned), text. */
const threePages = [['Alpha report', 'first page body'], null, ['Gamma (final) page', 'the end']];

const valueOf = (result: Result<ReadFileOutput>): ReadFileOutput => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
};

describe('read_file on an image', () => {
  it('answers a PNG as an image with its size, dimensions and bytes', async () => {
    const kit = await newKit();
    const png = makePng(37, 21);
    await writeFile(join(kit.workspace, 'shot.png'), png);
    expect(valueOf(await kit.call(readFileTool, { path: 'shot.png' }))).toEqual({
      kind: 'image',
      path: 'shot.png',
      mime: 'image/png',
      bytes: png.length,
      width: 37,
      height: 21,
      data: png.toString('base64'),
    });
  });

  it.each([
    ['image/gif', makeGifHeader(640, 480)],
    ['image/jpeg', makeJpegHeader(640, 480)],
    ['image/webp', makeWebpHeader(640, 480)],
  ])('goes by the bytes, not the name: %s called notes.txt is that image', async (mime, bytes) => {
    const kit = await newKit({ files: { 'notes.txt': bytes } });
    expect(valueOf(await kit.call(readFileTool, { path: 'notes.txt' }))).toMatchObject({
      kind: 'image',
      mime,
      width: 640,
      height: 480,
    });
  });

  it('refuses an image over the image cap, and one too wide, with file_too_large', async () => {
    const kit = await newKit({
      limits: { maxImageBytes: 1000, maxImageSide: 100 },
      files: { 'big.png': makePng(200, 200) },
    });
    const big = await kit.call(readFileTool, { path: 'big.png' });
    expect(big.ok || big.error).toMatchObject({ code: 'file_too_large', details: { limit: 1000 } });
    await writeFile(join(kit.workspace, 'wide.gif'), makeGifHeader(101, 1));
    const wide = await kit.call(readFileTool, { path: 'wide.gif' });
    expect(wide.ok || wide.error).toMatchObject({ code: 'file_too_large', message: matching(/101×1 image/) });
  });

  it('answers image_unreadable for a PNG whose header is cut off', async () => {
    const kit = await newKit({ files: { 'cut.png': makePng(10, 10).subarray(0, 12) } });
    const result = await kit.call(readFileTool, { path: 'cut.png' });
    expect(result.ok || result.error.code).toBe('image_unreadable');
  });
});

describe('read_file on a PDF', () => {
  it('reads a 3-page PDF as text by page and marks the page without text as scanned', async () => {
    const kit = await newKit();
    const pdf = makePdf(threePages);
    await writeFile(join(kit.workspace, 'report.pdf'), pdf);
    const value = valueOf(await kit.call(readFileTool, { path: 'report.pdf' }));
    expect(value).toEqual({
      kind: 'pdf',
      path: 'report.pdf',
      pages: 3,
      start_page: 1,
      end_page: 3,
      text:
        '[page 1]\nAlpha report\nfirst page body\n\n' +
        '[page 2: no text — a scanned image, or blank]\n\n' +
        '[page 3]\nGamma (final) page\nthe end',
      pages_without_text: [2],
      truncated: false,
      bytes: pdf.length,
      notice: matching(/Page 2 has no text layer: scanned images/),
    });
  });

  it('reads the pages asked for with start_page and end_page', async () => {
    const kit = await kitWithReport();
    const third = valueOf(await kit.call(readFileTool, { path: 'report.pdf', start_page: 3 }));
    expect(third).toMatchObject({ start_page: 3, end_page: 3, text: '[page 3]\nGamma (final) page\nthe end' });
    expect(third).not.toHaveProperty('pages_without_text');
    const first = valueOf(await kit.call(readFileTool, { path: 'report.pdf', start_page: 1, end_page: 1 }));
    expect(first).toMatchObject({ end_page: 1, text: '[page 1]\nAlpha report\nfirst page body', truncated: false });
    const past = valueOf(await kit.call(readFileTool, { path: 'report.pdf', start_page: 9 }));
    expect(past).toMatchObject({
      end_page: 8,
      text: '',
      notice: matching(/has 3 pages; start_page 9 is past the end/),
    });
  });

  it('stops at the output cap on a page boundary and says where to continue', async () => {
    const kit = await kitWithReport({ limits: { maxOutputBytes: 90 } });
    const value = valueOf(await kit.call(readFileTool, { path: 'report.pdf' }));
    expect(value).toMatchObject({
      end_page: 2,
      truncated: true,
      next_start_page: 3,
      notice: matching(/Showing pages 1-2 of 3\. Use start_page=3 to continue/),
    });
    const rest = valueOf(await kit.call(readFileTool, { path: 'report.pdf', start_page: 3 }));
    expect(rest).toMatchObject({ start_page: 3, end_page: 3, truncated: false });
  });

  it('shows the start of a first page longer than the cap alone, and goes on from the next', async () => {
    const kit = await kitWithReport({ limits: { maxOutputBytes: 30 } });
    const value = valueOf(await kit.call(readFileTool, { path: 'report.pdf' }));
    expect(value).toMatchObject({
      end_page: 1,
      text: '[page 1]\nAlpha report',
      truncated: true,
      next_start_page: 2,
      notice: matching(
        /^\[Page 1 is longer than the output limit; only its start is shown\.\] \[Showing page 1 of 3\./,
      ),
    });
  });

  it('refuses a PDF over the whole-file read cap, line ranges, and page ranges on text', async () => {
    const kit = await kitWithReport({ limits: { maxReadBytes: 200 } });
    const big = await kit.call(readFileTool, { path: 'report.pdf' });
    expect(big.ok || big.error).toMatchObject({ code: 'file_too_large', message: matching(/PDFs are read whole/) });
    const lines = await kit.call(readFileTool, { path: 'report.pdf', start_line: 1 });
    expect(lines.ok || lines.error).toMatchObject({ code: 'invalid_arguments', message: matching(/start_page/) });
    await writeFile(join(kit.workspace, 'a.txt'), 'text\n');
    const pages = await kit.call(readFileTool, { path: 'a.txt', start_page: 2 });
    expect(pages.ok || pages.error).toMatchObject({ code: 'invalid_arguments', message: matching(/not a PDF/) });
  });

  it('answers pdf_unreadable for an encrypted PDF and a damaged one', async () => {
    const kit = await newKit({ files: { 'locked.pdf': makePdf([['secret']], { encrypted: true }) } });
    const locked = await kit.call(readFileTool, { path: 'locked.pdf' });
    expect(locked.ok || locked.error).toMatchObject({ code: 'pdf_unreadable', details: { reason: 'encrypted' } });
    await writeFile(join(kit.workspace, 'broken.pdf'), '%PDF-1.7\nnothing a reader can use\n');
    const broken = await kit.call(readFileTool, { path: 'broken.pdf' });
    expect(broken.ok || broken.error).toMatchObject({ code: 'pdf_unreadable', details: { reason: 'damaged' } });
  });

  it('keeps a text file that mentions %PDF- after its first byte as text', async () => {
    const kit = await newKit({ files: { 'notes.md': 'PDFs start with %PDF-1.7\n' } });
    expect(valueOf(await kit.call(readFileTool, { path: 'notes.md' }))).toMatchObject({
      kind: 'text',
      content: 'PDFs start with %PDF-1.7',
    });
  });
});
