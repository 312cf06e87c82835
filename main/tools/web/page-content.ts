import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ToolLimits } from '../kit/tool-limits';
import { readPdf } from '../media/read-pdf';
import type { FetchedBody } from './guarded-fetch';

export interface PageContent {
  readonly kind: 'html' | 'text' | 'pdf';
  readonly title: string;
  readonly content: string;
  /** The content went on past the cap (or the download did). */
  readonly truncated: boolean;
  readonly pages?: number;
  readonly notice?: string;
}

/**
 * The HTML reader (linkedom, Readability, Turndown: ~300 ms of module loading) is loaded by the
 * first page read, not at every start of the app and of the MCP server.
 */
const readablePageModule = () => import('./readable-page');

/** The media type alone, lower case: `text/html; charset=utf-8` → `text/html`. */
const mediaType = (contentType: string) => (contentType.split(';')[0] ?? '').trim().toLowerCase();

const looksLikeHtml = (head: string) => /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head);

const textual = (type: string) =>
  type.startsWith('text/') ||
  /^application\/([a-z0-9.+-]*\+)?(json|xml|javascript|x-javascript|ecmascript|x-yaml|yaml|toml|x-sh)$/.test(type);

function decodeText(bytes: Buffer, contentType: string): string {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** At most `maxBytes` of UTF-8, never half a character. */
export function cutToBytes(text: string, maxBytes: number): { readonly text: string; readonly cut: boolean } {
  if (Buffer.byteLength(text) <= maxBytes) return { text, cut: false };
  return {
    text: Buffer.from(text)
      .subarray(0, maxBytes)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    cut: true,
  };
}

/**
 * What a fetched body says, for the model: an HTML page as readable Markdown (readable-page.ts),
 * a PDF as text by page through read_file's extractor (media/read-pdf.ts), any text as it is, within
 * `maxBytes`. Pictures, archives and other binaries are refused with binary_file.
 */
export async function pageContent(
  body: FetchedBody,
  maxBytes: number,
  limits: ToolLimits,
  signal: AbortSignal,
): Promise<Result<PageContent>> {
  const type = mediaType(body.contentType);
  const head = body.bytes.subarray(0, 512).toString('latin1');
  if (type === 'application/pdf' || head.startsWith('%PDF-')) {
    if (body.truncated) {
      return err(
        'file_too_large',
        `The PDF at ${body.finalUrl} is larger than the download cap of ${limits.maxReadBytes} bytes.`,
        {
          max_bytes: limits.maxReadBytes,
        },
      );
    }
    const pdf = await readPdf(
      body.finalUrl,
      body.bytes,
      { startPage: 1, endPage: undefined },
      { ...limits, maxOutputBytes: maxBytes },
      signal,
    );
    if (!pdf.ok) return pdf;
    const { text, pages, truncated, notice } = pdf.value;
    return ok({ kind: 'pdf', title: '', content: text, truncated, pages, ...(notice === undefined ? {} : { notice }) });
  }
  const html = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && looksLikeHtml(head));
  if (!html && !textual(type) && type !== '') {
    return err('binary_file', `${body.finalUrl} is ${type}, not a page or text web_fetch can read.`, {
      content_type: type,
    });
  }
  const text = decodeText(body.bytes, body.contentType);
  if (!html && text.includes('\u0000')) {
    return err('binary_file', `${body.finalUrl} holds binary data, not text.`, { content_type: type });
  }
  const page = html ? (await readablePageModule()).readablePage(text, body.finalUrl) : { title: '', markdown: text };
  const shown = cutToBytes(page.markdown, maxBytes);
  const notices: string[] = [];
  if (shown.cut) notices.push(`[Content cut at max_bytes (${maxBytes}); ask again with a larger max_bytes for more.]`);
  if (body.truncated) notices.push(`[The download stopped at ${body.bytes.length} bytes: the page is longer.]`);
  return ok({
    kind: html ? 'html' : 'text',
    title: page.title,
    content: shown.text,
    truncated: shown.cut || body.truncated,
    ...(notices.length === 0 ? {} : { notice: notices.join(' ') }),
  });
}
