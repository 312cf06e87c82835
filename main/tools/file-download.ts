import { z } from 'zod';
import { err, ok } from '../../shared/result';
import { OFFER_TIMEOUT_MS } from '../domain/transfers/transfer-service';
import { defineTool, onGivenPath } from './define-tool';

const input = z.object({
  path: z.string().describe('The workspace file to offer, relative to the workspace root.'),
});

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const fileDownloadOutput = z.object({
  path: z.string(),
  offered: z.boolean().describe('A save action was put in front of the user.'),
  /** The user saved it (desktop: the native dialog; browser: the download was started). */
  saved: z.boolean(),
  location: z.string().exactOptional(),
  reason: z.string().exactOptional(),
});

export const fileDownloadTool = defineTool({
  name: 'file_download',
  description:
    'Offer a workspace file to the user to save on their computer (a Save dialog in the desktop app, a browser download in browser mode). ' +
    'Waits for the user (up to 10 minutes) and returns offered and saved. Use it when the user asks for a file they can keep or share.',
  input,
  output: fileDownloadOutput,
  operations: ['read'],
  access: onGivenPath('read'),
  // The user's answer, not the runner's 30 seconds, ends this call.
  timeoutMs: () => OFFER_TIMEOUT_MS + 30_000,
  async run(args, ctx) {
    const resolved = await ctx.env.sandbox.resolve(args.path, 'read');
    if (!resolved.ok) return resolved;
    const file = resolved.value;
    if (file.facts === undefined) return err('file_not_found', `'${file.display}' does not exist.`);
    if (file.facts.kind !== 'file')
      return err('not_a_file', `'${file.display}' is not a file; offer files one at a time.`);
    if (ctx.env.transfers === undefined) {
      return ok({
        path: file.display,
        offered: false,
        saved: false,
        reason: 'Downloads are not available in this session.',
      });
    }
    const name = file.display.slice(file.display.lastIndexOf('/') + 1);
    const answer = await ctx.env.transfers.offer(
      {
        conversationId: ctx.conversationId,
        path: file.display,
        name,
        bytes: file.facts.size,
        key: file.key,
        ino: file.facts.ino,
      },
      ctx.signal,
    );
    return ok({
      path: file.display,
      offered: answer.offered,
      saved: answer.saved,
      ...(answer.location === undefined ? {} : { location: answer.location }),
      ...(answer.reason === undefined ? {} : { reason: answer.reason }),
    });
  },
});
