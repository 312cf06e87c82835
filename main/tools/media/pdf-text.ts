import { fileURLToPath } from 'node:url';
import { messageOf } from '../../../shared/errors';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

/** An open PDF: its page count and the text layer of one page at a time. */
export interface PdfText {
  readonly pages: number;
  /** The text of page `page` (1-based), lines as the PDF ends them; '' when the page has no text layer. */
  pageText(page: number): Promise<string>;
  close(): Promise<void>;
}

type PdfJs = typeof PdfJsModule;

/**
 * PDF.js is loaded on the first PDF, not at start: it is large, and on import it warns (on stderr)
 * that @napi-rs/canvas is missing, which only rendering needs. The legacy build is the one for
 * Node (and Electron's main process). In Node it parses in this thread ("fake worker") and would
 * import its worker module by a path relative to itself, which a bundle breaks (the MCP tests
 * bundle everything). Importing the worker module here first registers it as
 * `globalThis.pdfjsWorker`, which PDF.js then uses: bundled and from node_modules alike.
 */
let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = (): Promise<PdfJs> =>
  (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.worker.mjs').then(() => import('pdfjs-dist/legacy/build/pdf.mjs')));

/**
 * Where PDF.js finds the Adobe CMaps (older CJK PDFs need them to map glyphs to text) and the
 * standard fonts' data: inside its own package. Undefined when the package cannot be located.
 */
function packageFolder(folder: string): string | undefined {
  try {
    return fileURLToPath(new URL(`${folder}/`, import.meta.resolve('pdfjs-dist/package.json')));
  } catch {
    return undefined;
  }
}

/** A text item, or the marked-content boundaries PDF.js mixes in (no `str`). */
interface TextPiece {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

function joinPieces(items: readonly TextPiece[]): string {
  let text = '';
  for (const item of items) {
    if (item.str === undefined) continue;
    text += item.str;
    if (item.hasEOL === true) text += '\n';
  }
  // Trailing blanks on each line and blank lines at the ends carry nothing.
  return text.replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
}

/**
 * Opens a PDF's bytes (already read through the sandbox: PDF.js never touches the workspace) for
 * its text. Encrypted with a password, or damaged beyond PDF.js's repairs: pdf_unreadable, with
 * details.reason 'encrypted' or 'damaged'.
 */
export async function openPdfText(display: string, bytes: Uint8Array): Promise<Result<PdfText>> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const cMapUrl = packageFolder('cmaps');
  const standardFontDataUrl = packageFolder('standard_fonts');
  const task = getDocument({
    // A copy: PDF.js takes ownership of the array it is given.
    data: new Uint8Array(bytes),
    verbosity: VerbosityLevel.ERRORS,
    ...(cMapUrl === undefined ? {} : { cMapUrl }),
    ...(standardFontDataUrl === undefined ? {} : { standardFontDataUrl }),
    // Text only: nothing is rendered, no fonts installed, no forms run, no system fonts looked up.
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
  });
  try {
    const document = await task.promise;
    return ok({
      pages: document.numPages,
      async pageText(page) {
        const content = await (await document.getPage(page)).getTextContent();
        return joinPieces(content.items as readonly TextPiece[]);
      },
      close: () => task.destroy(),
    });
  } catch (error) {
    await task.destroy();
    const encrypted = error instanceof Error && error.name === 'PasswordException';
    return err(
      'pdf_unreadable',
      encrypted
        ? `'${display}' is a PDF protected by a password; it cannot be read without it. Ask the user for an unprotected copy.`
        : `'${display}' starts like a PDF but cannot be read (${messageOf(error)}): the file may be damaged or truncated.`,
      { reason: encrypted ? 'encrypted' : 'damaged' },
    );
  }
}
