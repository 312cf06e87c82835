import { crc32, deflateSync } from 'node:zlib';

/**
 * Pictures and PDFs for the tests of read_file, made here byte by byte so each test knows exactly
 * what is in them (dimensions, pages, text) and nothing comes from outside.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of the given size: a red-to-blue gradient, so it is not all one colour. `padding`
 * adds a private ancillary chunk of that many bytes (readers skip it): a big file of small pixels.
 */
export function makePng(width: number, height: number, padding = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bits per channel
  header.writeUInt8(2, 9); // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0: none
    for (let x = 0; x < width; x += 1) {
      row[1 + x * 3] = Math.round((255 * x) / Math.max(1, width - 1));
      row[3 + x * 3] = Math.round((255 * y) / Math.max(1, height - 1));
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    ...(padding > 0 ? [pngChunk('fmLy', Buffer.alloc(padding, 0x2a))] : []),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF header (logical screen only): enough for its dimensions. */
export function makeGifHeader(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, Buffer.from([0x3b])]);
}

/** A JPEG's start: SOI, the JFIF segment and a baseline frame header (SOF0) giving its size. */
export function makeJpegHeader(width: number, height: number): Buffer {
  const jfif = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, frame, Buffer.from([0xff, 0xd9])]);
}

/** An extended WebP header (VP8X), which states the canvas size (each less one, 24 bits little-endian). */
export function makeWebpHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}

const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;

export interface PdfOptions {
  /** Protected by a user password (the Standard security handler): no reader opens it without one. */
  readonly encrypted?: boolean;
}

/**
 * A PDF with one page per entry: its lines of text in Helvetica, or null for a page with no text
 * layer (what a scanned page is to a text extractor). The cross-reference table's offsets are
 * computed as the file is written, as a real writer does.
 */
export function makePdf(pages: readonly (readonly string[] | null)[], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const stream =
      lines === null
        ? ''
        : `BT /F1 14 Tf 16 TL 72 720 Td ${lines.map((line) => `${pdfString(line)} Tj T*`).join(' ')} ET`;
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] =
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let encryption = '';
  if (options.encrypted === true) {
    // O and U entries that no password (the empty one included) matches.
    const key = 'ab'.repeat(32);
    const dictionary = add(`<< /Filter /Standard /V 1 /R 2 /O <${key}> /U <${key}> /P -4 >>`);
    const id = '01'.repeat(16);
    encryption = ` /Encrypt ${dictionary} 0 R /ID [<${id}> <${id}>]`;
  }
  let file = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(file, 'latin1'));
    file += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(file, 'latin1');
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  file += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  file += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encryption} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(file, 'latin1');
}
