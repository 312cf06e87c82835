import type { ImageMime } from '../../../shared/tool-image';

/** What read_file makes of a file's first bytes besides text: a picture for the model, or a PDF. */
export type MediaKind = { readonly kind: 'image'; readonly mime: ImageMime } | { readonly kind: 'pdf' };

const startsWith = (head: Uint8Array, signature: readonly number[], at = 0): boolean =>
  head.length >= at + signature.length && signature.every((byte, i) => head[at + i] === byte);

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpeg = [0xff, 0xd8, 0xff];
const gif87 = ascii('GIF87a');
const gif89 = ascii('GIF89a');
const riff = ascii('RIFF');
const webp = ascii('WEBP');
const pdf = ascii('%PDF-');

/**
 * The media a file is, by its magic bytes (never by its name: a PNG called notes.txt is a PNG, and
 * a text file called scan.pdf is text). Undefined for everything else, text and other binaries.
 */
export function mediaKindOf(head: Uint8Array): MediaKind | undefined {
  if (startsWith(head, png)) return { kind: 'image', mime: 'image/png' };
  if (startsWith(head, jpeg)) return { kind: 'image', mime: 'image/jpeg' };
  if (startsWith(head, gif87) || startsWith(head, gif89)) return { kind: 'image', mime: 'image/gif' };
  if (startsWith(head, riff) && startsWith(head, webp, 8)) return { kind: 'image', mime: 'image/webp' };
  // At the very start only: readers also accept junk before it, but a text file that mentions
  // %PDF- in its first lines (notes about PDFs, a parser's source) must stay text.
  if (startsWith(head, pdf)) return { kind: 'pdf' };
  return undefined;
}
