import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/** How many leading bytes the binary sniff looks at (git and ripgrep look at about as many). */
export const sniffBytes = 8192;

export interface DecodedText {
  /** The text without its BOM. */
  readonly text: string;
  /** Canonical encoding name, e.g. 'utf-8', 'utf-16le', 'windows-1251'. */
  readonly encoding: string;
  /** Whether the bytes started with a byte order mark (kept on write). */
  readonly bom: boolean;
}

const boms: readonly { encoding: string; bytes: readonly number[] }[] = [
  { encoding: 'utf-8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf-16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf-16be', bytes: [0xfe, 0xff] },
];

/** The encoding a byte order mark announces, and the mark's length. */
export function sniffBom(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  const found = boms.find((bom) => bom.bytes.every((byte, i) => bytes[i] === byte));
  return found && { encoding: found.encoding, length: found.bytes.length };
}

/** 'UTF8', 'utf8', 'Windows-1251' → 'utf-8', 'windows-1251'; undefined when iconv-lite does not know it. */
export function canonicalEncoding(name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'utf8' || lower === 'utf-8') return 'utf-8';
  if (lower === 'utf16le' || lower === 'ucs2' || lower === 'ucs-2') return 'utf-16le';
  if (lower === 'utf16be') return 'utf-16be';
  return iconv.encodingExists(lower) ? lower : undefined;
}

export const unknownEncoding = (name: string) =>
  err(
    'encoding_error',
    `Unknown encoding '${name}'. Use a name like 'utf-8', 'utf-16le', 'windows-1251', 'gbk', 'shift_jis' or 'latin1'.`,
  );

/** Encodings whose newline is the single byte 0x0A and never part of another character. */
export function isAsciiCompatible(encoding: string): boolean {
  return !/^(utf-?16|utf-?32|ucs-?2|ucs-?4|utf-?7)/.test(encoding);
}

/** A NUL among the first bytes means binary, unless the text is UTF-16/32 where NULs are normal. */
export function looksBinary(head: Uint8Array, encoding: string | undefined): boolean {
  const effective = sniffBom(head)?.encoding ?? encoding;
  if (effective !== undefined && !isAsciiCompatible(effective)) return false;
  return head.subarray(0, sniffBytes).includes(0);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

const encodingHint =
  "If you know the file's encoding, pass it (e.g. 'windows-1251', 'gbk', 'shift_jis', 'latin1'); get_file_info guesses it.";

/**
 * Decodes file bytes. A BOM decides the encoding (it is unambiguous); otherwise `requested` does.
 * Bytes that do not decode losslessly are an encoding_error, never silently replaced: an edit would
 * otherwise rewrite them as U+FFFD.
 */
export function decodeText(bytes: Buffer, requested = 'utf-8'): Result<DecodedText> {
  const bom = sniffBom(bytes);
  const encoding = bom?.encoding ?? canonicalEncoding(requested);
  if (encoding === undefined) return unknownEncoding(requested);
  const body = bom === undefined ? bytes : bytes.subarray(bom.length);
  if (encoding === 'utf-8') {
    if (!isUtf8(body)) {
      const text = body.toString('utf8');
      return err(
        'encoding_error',
        `The file is not valid UTF-8 (first bad byte on line ${lineOf(text, text.indexOf('\uFFFD'))}). ${encodingHint}`,
      );
    }
    return ok({ text: body.toString('utf8'), encoding, bom: bom !== undefined });
  }
  const text = iconv.decode(body, encoding, { stripBOM: false });
  const again = iconv.encode(text, encoding);
  if (!again.equals(body)) {
    let at = 0;
    while (at < body.length && at < again.length && body[at] === again[at]) at += 1;
    const line = body.subarray(0, at).filter((byte) => byte === 0x0a).length + 1;
    return err(
      'encoding_error',
      `The file is not valid ${encoding} (first bad byte near line ${line}). ${encodingHint}`,
    );
  }
  return ok({ text, encoding, bom: bom !== undefined });
}

/** Encodes text for writing; characters the encoding cannot hold are an encoding_error, not '?'. */
export function encodeText(text: string, encoding: string, bom: boolean): Result<Buffer> {
  if (encoding === 'utf-8') {
    const body = Buffer.from(text, 'utf8');
    return ok(bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body);
  }
  const body = iconv.encode(text, encoding, { addBOM: false });
  if (iconv.decode(body, encoding, { stripBOM: false }) !== text) {
    const chars = [...text];
    const bad = chars.find((char) => iconv.decode(iconv.encode(char, encoding), encoding) !== char) ?? '?';
    return err(
      'encoding_error',
      `'${bad}' cannot be written in ${encoding}. Use characters that exist in ${encoding}, or write the file as utf-8.`,
    );
  }
  const mark = bom ? boms.find((b) => b.encoding === encoding) : undefined;
  return ok(mark === undefined ? body : Buffer.concat([Buffer.from(mark.bytes), body]));
}
