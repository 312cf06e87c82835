import { formatBytes } from '../../../shared/format-bytes';
import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { fingerprintOf } from '../../platform/disk/fingerprint';
import type { OpenFile } from '../../platform/disk/anchored-read';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import type { ToolContext } from '../define-tool';
import type { MediaKind } from './media-kind';
import { imageTooLarge, readImage } from './read-image';
import type { ImageReadOutput } from './read-image';
import { readPdf } from './read-pdf';
import type { PdfReadOutput } from './read-pdf';

/** The arguments of read_file that choose a part of a file. */
export interface ReadWindowArgs {
  readonly start_line?: number | undefined;
  readonly end_line?: number | undefined;
  readonly start_page?: number | undefined;
  readonly end_page?: number | undefined;
}

/**
 * read_file on a picture or a PDF, from the file it opened through the sandbox (the bytes are read
 * here, whole, from that handle: nothing else touches the workspace). Both are read whole, so the
 * caps are on the file: an image's own (its bytes go to the model), a PDF's the whole-file read cap.
 */
export async function readMedia(
  media: MediaKind,
  path: ResolvedPath,
  { handle, facts }: OpenFile,
  args: ReadWindowArgs,
  ctx: ToolContext,
): Promise<Result<ImageReadOutput | PdfReadOutput>> {
  const { limits } = ctx.env;
  const rememberRead = (bytes: Buffer) =>
    ctx.env.readTracker.remember(ctx.conversationId, path.key, fingerprintOf(facts, bytes));

  if (media.kind === 'image') {
    const tooLarge = imageTooLarge(path.display, facts.size, limits);
    if (tooLarge !== undefined) return tooLarge;
    const bytes = await handle.readAll(facts.size);
    const image = readImage(path.display, media.mime, bytes, limits);
    if (image.ok) rememberRead(bytes);
    return image;
  }

  if (args.start_line !== undefined || args.end_line !== undefined) {
    return err(
      'invalid_arguments',
      `'${path.display}' is a PDF: it is read by page, not by line. Use start_page and end_page.`,
    );
  }
  if (facts.size > limits.maxReadBytes) {
    return err(
      'file_too_large',
      `'${path.display}' is a PDF of ${formatBytes(facts.size)}; PDFs are read whole (start_page/end_page choose what is shown, not what is read) and reads stop at ${formatBytes(limits.maxReadBytes)}.`,
      { size: facts.size, limit: limits.maxReadBytes },
    );
  }
  const bytes = await handle.readAll(facts.size);
  const pdf = await readPdf(
    path.display,
    bytes,
    { startPage: args.start_page ?? 1, endPage: args.end_page },
    limits,
    ctx.signal,
  );
  if (pdf.ok) rememberRead(bytes);
  return pdf;
}
