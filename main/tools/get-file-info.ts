import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { guessEncoding } from '../platform/disk/encoding-guess';
import { lineOffsetCache } from '../platform/disk/line-offsets';
import { readLineRange } from '../platform/disk/line-range-reader';
import { isAsciiCompatible, sniffBom } from '../platform/disk/text-codec';
import type { EntryKind, ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import type { ToolContext } from './define-tool';
import { entryTypeSchema, noticeSchema } from './kit/output-shapes';

const input = z.object({
  path: z.string().describe('File or folder, relative to the workspace root.'),
});

/** Bytes sampled for the encoding guess and the line-ending check. */
const sampleBytes = 64 * 1024;

/** The result type is the output schema's (getFileInfoOutput, below): one source, so the two cannot drift. */
export type GetFileInfoOutput = z.output<typeof getFileInfoOutput>;

const typeOf = (kind: EntryKind): GetFileInfoOutput['type'] => (kind === 'special' ? 'other' : kind);

function lineEndings(sample: Buffer): NonNullable<GetFileInfoOutput['line_endings']> {
  let crlf = 0;
  let lf = 0;
  for (let at = sample.indexOf(10); at !== -1; at = sample.indexOf(10, at + 1)) {
    if (at > 0 && sample[at - 1] === 13) crlf += 1;
    else lf += 1;
  }
  if (crlf === 0 && lf === 0) return 'none';
  return crlf === 0 ? 'lf' : lf === 0 ? 'crlf' : 'mixed';
}

async function fileFacts(ctx: ToolContext, path: ResolvedPath): Promise<Result<Partial<GetFileInfoOutput>>> {
  return ctx.env.sandbox.withOpenFile<Partial<GetFileInfoOutput>>(path, async ({ handle, facts }) => {
    const sample = await handle.readAll(Math.min(sampleBytes, facts.size));
    const encoding = guessEncoding(sample);
    if (encoding === 'binary') return ok({ binary: true, encoding });
    const bom = sniffBom(sample);
    const streamEncoding = bom?.encoding ?? (encoding === 'unknown' || encoding === 'ascii' ? 'latin1' : encoding);
    // Counting lines streams the file: memory stays flat whatever its size.
    const counted = await readLineRange(handle, {
      startLine: Number.MAX_SAFE_INTEGER,
      maxLines: 0,
      maxBytes: 0,
      encoding: streamEncoding,
      bomLength: bom?.length ?? 0,
      signal: ctx.signal,
      offsets: isAsciiCompatible(streamEncoding) ? lineOffsetCache.for(facts, bom?.length ?? 0) : undefined,
    });
    return ok({
      binary: false,
      encoding,
      ...(counted.ok ? { line_count: counted.value.totalLines } : {}),
      ...(isAsciiCompatible(streamEncoding) ? { line_endings: lineEndings(sample) } : {}),
    });
  });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const getFileInfoOutput = z.object({
  path: z.string(),
  type: entryTypeSchema,
  size: z.number().int(),
  modified: z.string(),
  mode: z.string().describe("rwx bits, e.g. '644'."),
  binary: z.boolean().exactOptional(),
  encoding: z.string().exactOptional(),
  line_count: z.number().int().exactOptional(),
  line_endings: z.enum(['lf', 'crlf', 'mixed', 'none']).exactOptional(),
  entries: z.number().int().exactOptional(),
  /** For a symlink: its workspace-relative target, when that is inside the workspace. */
  target: z.string().exactOptional(),
  target_type: z.enum(['file', 'directory', 'symlink', 'other', 'missing']).exactOptional(),
  notice: noticeSchema,
});

export const getFileInfoTool = defineTool({
  name: 'get_file_info',
  description:
    'Facts about a file or folder without reading it all: type, size, modification time, line count and encoding guess for text, whether it is binary, ' +
    'line endings, the number of entries of a folder, and where a symlink points (when inside the workspace).',
  input,
  output: getFileInfoOutput,
  operations: ['read'],
  access: onGivenPath('read'),
  async run(args, ctx): Promise<Result<GetFileInfoOutput>> {
    const { sandbox } = ctx.env;
    const resolved = await sandbox.resolve(args.path, 'read', { followFinal: false });
    if (!resolved.ok) return resolved;
    const path = resolved.value;
    const facts = path.facts;
    if (facts === undefined) return err('file_not_found', `'${path.display}' does not exist.`);
    const base = {
      path: path.display,
      type: typeOf(facts.kind),
      size: facts.size,
      modified: new Date(facts.mtimeMs).toISOString(),
      mode: (facts.mode & 0o777).toString(8),
    };
    if (facts.kind === 'directory') {
      const listed = sandbox.listDir(path);
      return ok({ ...base, ...(listed.ok ? { entries: listed.value.length } : {}) });
    }
    if (facts.kind === 'special') {
      return ok({ ...base, notice: '[A FIFO, socket or device: tools do not read it.]' });
    }
    if (facts.kind === 'symlink') {
      const followed = await sandbox.resolve(args.path, 'read');
      if (!followed.ok) {
        // Where it points is not shown: a path outside the workspace is none of the assistant's business.
        return ok({ ...base, notice: `[A symbolic link tools do not follow: ${followed.error.message}]` });
      }
      const target = followed.value.realRel;
      return ok({
        ...base,
        target: target === '' ? '.' : target,
        target_type: followed.value.facts === undefined ? 'missing' : typeOf(followed.value.facts.kind),
      });
    }
    const details = await fileFacts(ctx, path);
    if (!details.ok) return details;
    return ok({ ...base, ...details.value });
  },
});
