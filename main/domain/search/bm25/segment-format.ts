/**
 * The segment file's layout (issue 32 items 5 and 7: the semantic index on disk in segments, small in
 * memory). Written by SegmentWriter (segment-writer.ts), opened by DiskSegment (disk-segment.ts).
 *
 * A segment file, little-endian:
 *
 *     magic "FSEG" u32, version u32, head bytes u32, header JSON bytes u32
 *     header JSON { files, chunks, terms, dictBytes, postingsBytes, paths, versions, headings,
 *                   sparseTerms, sparseDict, sparsePostings }          (then zero padding to 4)
 *     chunk columns: file u32 × c, startLine u32 × c, endLine u32 × c, length u32 × c,
 *                    heading i32 × c (-1: none), file's first chunk u32 × f, file's chunk count u32 × f,
 *                    sha1 of the chunk's text 20 bytes × c                   (then padding to 4)
 *     term dictionary (sorted by UTF-16 code units): per term varint UTF-8 length, the bytes,
 *                    varint df, varint postings bytes
 *     postings: per term, per chunk (ascending) varint slot delta, varint tf × 2
 *
 * Opening reads the head (header and columns: a few MB for 30,000 files); every SPARSE_EVERY-th term
 * of the dictionary is in the header with its offsets, so a lookup reads one dictionary block and one
 * postings list with positioned reads.
 */
export const MAGIC = 0x47455346; // "FSEG"
export const VERSION = 1;
export const PREFIX = 16;
export const SPARSE_EVERY = 64;
export const HASH_BYTES = 20;

export interface Header {
  readonly files: number;
  readonly chunks: number;
  readonly terms: number;
  readonly dictBytes: number;
  readonly postingsBytes: number;
  readonly paths: string[];
  readonly versions: string[];
  readonly headings: string[];
  readonly sparseTerms: string[];
  readonly sparseDict: number[];
  readonly sparsePostings: number[];
}

export const pad4 = (n: number) => (4 - (n % 4)) % 4;
