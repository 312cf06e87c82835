import type { Location } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { ok } from '../../shared/result';
import { showLocations } from '../domain/lsp/render-locations';
import { codeTargetShape, defineCodeQuery, hasTarget, targetMessage } from './code/code-target';
import { shownLocationSchema } from './kit/output-shapes';

const maxShown = 200;

const input = z
  .object({
    ...codeTargetShape,
    include_declaration: z.boolean().default(true).describe('Count the declaration itself (default true).'),
  })
  .refine(hasTarget, { message: targetMessage });

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeReferencesOutput = z.object({
  path: z.string(),
  total: z.number().int(),
  references: z.array(shownLocationSchema),
  truncated: z.boolean(),
});

export const codeReferencesTool = defineCodeQuery({
  name: 'code_references',
  description:
    'Find all references through the language server: every place the symbol at a position (path, line, column; 1-based) or with a name (symbol) is used, across the workspace. ' +
    `Returns workspace-relative locations with the line text (at most ${maxShown}); places outside the workspace are named by package and file only. More precise than search_in_code: no false hits from comments or same-named symbols.`,
  input,
  output: codeReferencesOutput,
  async run({ client, uri, position, relPath }, args, ctx) {
    const answer = await client.request<Location[]>(
      'textDocument/references',
      { textDocument: { uri }, position, context: { includeDeclaration: args.include_declaration } },
      ctx.signal,
    );
    if (!answer.ok) return answer;
    const shown = await showLocations(answer.value ?? [], ctx.env.sandbox, maxShown);
    return ok({ path: relPath, total: shown.total, references: shown.locations, truncated: shown.truncated });
  },
});
