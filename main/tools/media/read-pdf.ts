import { z } from 'zod';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ToolLimits } from '../kit/tool-limits';
import { noticeSchema } from '../kit/output-shapes';
import { openPdfText } from './pdf-text';

/** read_file's answer for a PDF: the text of a run of pages, each under its marker. */
export const pdfReadOutput = z.object({
  kind: z.literal('pdf'),
  path: z.string(),
  /** Pages in the document. */
  pages: z.number().int(),
  start_page: z.number().int(),
  /** The last page shown; start_page - 1 when none was. */
  end_page: z.number().int(),
  /** Each page as "[page N]" and its text; a page without a text layer as one marker line. */
  text: z.string(),
  /** Shown pages with no text layer: scanned images (or blank pages). */
  pages_without_text: z.array(z.number().int()).exactOptional(),
  truncated: z.boolean(),
  next_start_page: z.number().int().exactOptional(),
  /** The file's size. */
  bytes: z.number().int(),
  notice: noticeSchema,
});
export type PdfReadOutput = z.output<typeof pdfReadOutput>;

export interface PageWindow {
  readonly startPage: number;
  readonly endPage: number | undefined;
}

const noTextMarker = (page: number) => `[page ${page}: no text — a scanned image, or blank]`;

/**
 * A page too long to show whole, cut to at most `maxBytes` of UTF-8 without splitting a character,
 * and at the end of its last whole line when one fits after the page marker.
 */
function cutPage(block: string, maxBytes: number, maxLines: number): string {
  const cut = Buffer.from(block.split('\n').slice(0, maxLines).join('\n'))
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const lastBreak = cut.lastIndexOf('\n');
  return lastBreak > cut.indexOf('\n') ? cut.slice(0, lastBreak) : cut;
}

const countLines = (text: string) => text.split('\n').length;

/**
 * The pages of a PDF asked for, as text, within the output caps (the same bytes and lines as a text
 * read): whole pages only, except a first page too long alone, whose start is shown. Pages are read
 * one at a time, so a stop (the user's, the timeout's) ends the work between pages.
 */
export async function readPdf(
  display: string,
  bytes: Buffer,
  window: PageWindow,
  limits: ToolLimits,
  signal: AbortSignal,
): Promise<Result<PdfReadOutput>> {
  const opened = await openPdfText(display, bytes);
  if (!opened.ok) return opened;
  const pdf = opened.value;
  try {
    const base = {
      kind: 'pdf' as const,
      path: display,
      pages: pdf.pages,
      start_page: window.startPage,
      bytes: bytes.length,
    };
    if (window.startPage > pdf.pages) {
      return ok({
        ...base,
        end_page: window.startPage - 1,
        text: '',
        truncated: false,
        notice: `[The PDF has ${pdf.pages} page${pdf.pages === 1 ? '' : 's'}; start_page ${window.startPage} is past the end.]`,
      });
    }
    const lastAsked = Math.min(window.endPage ?? pdf.pages, pdf.pages);
    const blocks: string[] = [];
    const withoutText: number[] = [];
    let size = 0;
    let lines = 0;
    let endPage = window.startPage - 1;
    let cutAt: number | undefined;
    for (let page = window.startPage; page <= lastAsked; page += 1) {
      if (signal.aborted) return err('aborted', 'The read was stopped.');
      const text = await pdf.pageText(page);
      const block = text === '' ? noTextMarker(page) : `[page ${page}]\n${text}`;
      const blockSize = Buffer.byteLength(block) + 2;
      const blockLines = countLines(block) + 1;
      if (size + blockSize > limits.maxOutputBytes || lines + blockLines > limits.maxOutputLines) {
        if (blocks.length === 0) {
          blocks.push(cutPage(block, limits.maxOutputBytes, limits.maxOutputLines));
          endPage = page;
          cutAt = page;
        }
        break;
      }
      blocks.push(block);
      if (text === '') withoutText.push(page);
      size += blockSize;
      lines += blockLines;
      endPage = page;
    }
    const more = endPage < lastAsked;
    const truncated = more || cutAt !== undefined;
    const notices: string[] = [];
    if (cutAt !== undefined) {
      notices.push(`[Page ${cutAt} is longer than the output limit; only its start is shown.]`);
    }
    if (more) {
      const shown = endPage === window.startPage ? `page ${endPage}` : `pages ${window.startPage}-${endPage}`;
      notices.push(`[Showing ${shown} of ${pdf.pages}. Use start_page=${endPage + 1} to continue.]`);
    }
    if (withoutText.length > 0) {
      notices.push(
        `[${withoutText.length === 1 ? `Page ${withoutText[0]} has` : `Pages ${withoutText.join(', ')} have`} no text layer: scanned images (or blank). read_file reads a PDF's text only, not the pictures in it.]`,
      );
    }
    return ok({
      ...base,
      end_page: endPage,
      text: blocks.join('\n\n'),
      ...(withoutText.length === 0 ? {} : { pages_without_text: withoutText }),
      truncated,
      ...(more ? { next_start_page: endPage + 1 } : {}),
      ...(notices.length === 0 ? {} : { notice: notices.join(' ') }),
    });
  } finally {
    await pdf.close();
  }
}
