import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import {
  defaultUploadLimits,
  saveUpload,
  UPLOADS_DIR,
  uploadNote,
  validateUpload,
} from '../domain/transfers/upload-file';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';

const input = z.object({
  name: z.string().min(1).max(255).describe('File name for the attachment, e.g. "notes.md" (no folders).'),
  content: z
    .string()
    .max(30 * 1024 * 1024)
    .describe('The attached file content.'),
  encoding: z
    .enum(['utf-8', 'base64'])
    .default('utf-8')
    .describe("How content is given: 'utf-8' text (default) or 'base64' bytes."),
});
type UploadArgs = z.output<typeof input>;

function decode(args: UploadArgs, ctx: ToolContext): Result<{ bytes: Buffer; name: string }> {
  const bytes = args.encoding === 'base64' ? Buffer.from(args.content, 'base64') : Buffer.from(args.content, 'utf8');
  const limits = ctx.env.transfers?.uploadLimits() ?? defaultUploadLimits;
  const valid = validateUpload(args.name, bytes, limits);
  if (!valid.ok) return valid;
  return ok({ bytes, name: valid.value });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const fileUploadOutput = z.object({ name: z.string(), path: z.string(), bytes: z.number().int(), note: z.string() });

export const fileUploadTool = defineTool({
  name: 'file_upload',
  description:
    `Save a file the user attached to the conversation into the workspace's ${UPLOADS_DIR}/ folder (never overwriting: a taken name becomes "name (1).ext"). ` +
    'The same checks as a dropped file apply: a plain name (no folders, control or shell characters), size within the upload limit, text unless the user allowed other types. ' +
    'Files the user drops or picks are saved without this tool; their messages say where.',
  input,
  output: fileUploadOutput,
  additive: true,
  operations: ['write'],
  access: (args) => [{ operation: 'write', path: `${UPLOADS_DIR}/${args.name}` }],

  prepare(args, ctx): Promise<Result<ChangePreview>> {
    const decoded = decode(args, ctx);
    if (!decoded.ok) return Promise.resolve(decoded);
    const text = args.encoding === 'utf-8' ? args.content : undefined;
    return Promise.resolve<Result<ChangePreview>>({
      ok: true,
      value: {
        summary: `Save the attachment ${decoded.value.name} into ${UPLOADS_DIR}/`,
        path: `${UPLOADS_DIR}/${decoded.value.name}`,
        ...(text === undefined ? {} : { before: '', after: text }),
        facts: { bytes: decoded.value.bytes.length },
      },
    });
  },

  async run(args, ctx) {
    const decoded = decode(args, ctx);
    if (!decoded.ok) return decoded;
    const limits = ctx.env.transfers?.uploadLimits() ?? defaultUploadLimits;
    const saved = await saveUpload(ctx.env.sandbox, decoded.value.name, decoded.value.bytes, limits);
    if (!saved.ok) return saved;
    if (saved.value.bytes !== decoded.value.bytes.length)
      return err('internal_error', 'The upload was not written whole.');
    return ok({ ...saved.value, note: uploadNote(saved.value) });
  },
});
