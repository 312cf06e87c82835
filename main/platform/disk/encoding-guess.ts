import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { sniffBom, sniffBytes } from './text-codec';

const nonAscii = (text: string) => [...text].filter((char) => char.charCodeAt(0) >= 0x80).length;
const share = (text: string, letters: RegExp) => {
  const total = nonAscii(text);
  return total === 0 ? 0 : (text.match(letters)?.length ?? 0) / total;
};

/** GBK text is mostly GB2312 hanzi and symbols: lead 0xB0–0xF7 (or 0xA1–0xA9), trail 0xA1–0xFE. */
function gb2312Share(bytes: Buffer): number {
  let pairs = 0;
  let core = 0;
  for (let i = 0; i < bytes.length - 1;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const trail = bytes[i + 1]!;
    pairs += 1;
    if (((lead >= 0xb0 && lead <= 0xf7) || (lead >= 0xa1 && lead <= 0xa9)) && trail >= 0xa1 && trail <= 0xfe) core += 1;
    i += 2;
  }
  return pairs === 0 ? 0 : core / pairs;
}

/**
 * Legacy encodings worth guessing, each scored by how much its decoding reads like real text of its
 * script: Cyrillic letters, GB2312 hanzi, Japanese with kana (Japanese prose always has some; GBK
 * bytes read as Shift_JIS come out as half-width katakana, which do not count), Latin accents.
 */
const candidates: readonly { encoding: string; score: (text: string, bytes: Buffer) => number }[] = [
  { encoding: 'windows-1251', score: (text) => share(text, /[\u0400-\u04ff]/gu) },
  { encoding: 'gbk', score: (_, bytes) => gb2312Share(bytes) },
  {
    encoding: 'shift_jis',
    score: (text) =>
      /[\u3040-\u30ff]/u.test(text) ? share(text, /[\u3040-\u30ff\u4e00-\u9fff\u3000-\u303f\uff01-\uff5e]/gu) + 0.1 : 0,
  },
  { encoding: 'windows-1252', score: (text) => share(text, /[\u00c0-\u00ff]/gu) * 0.9 },
];

/**
 * A best guess at a file's encoding from its first bytes, for get_file_info: a BOM is certain, valid
 * UTF-8 is very likely UTF-8, otherwise the legacy encoding whose decoding is lossless and reads most
 * like its own script wins. 'binary' when a NUL byte shows up; 'unknown' when nothing fits.
 */
export function guessEncoding(head: Buffer): string {
  const bom = sniffBom(head);
  if (bom !== undefined) return bom.encoding;
  if (head.subarray(0, sniffBytes).includes(0)) return 'binary';
  // The sample may end inside a multi-byte character: drop up to 3 trailing bytes before judging.
  for (let cut = 0; cut <= 3 && cut < head.length; cut += 1) {
    if (isUtf8(head.subarray(0, head.length - cut))) return head.every((byte) => byte < 0x80) ? 'ascii' : 'utf-8';
  }
  const sample = head.subarray(0, Math.max(0, head.length - 1));
  let best = { encoding: 'unknown', score: 0 };
  for (const { encoding, score } of candidates) {
    const text = iconv.decode(sample, encoding);
    if (text.includes('\uFFFD')) continue;
    const value = score(text, sample);
    if (value > best.score) best = { encoding, score: value };
  }
  return best.score >= 0.5 ? best.encoding : 'unknown';
}
