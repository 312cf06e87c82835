import type { Hover, Location, LocationLink, MarkedString, MarkupContent } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { ok } from '../../shared/result';
import { outsideName, placeOf } from '../domain/lsp/locations';
import { asLocations } from './code-definition';
import { codeTargetShape, defineCodeQuery, hasTarget, targetMessage } from './code/code-target';
import { outsideNameSchema } from './kit/output-shapes';

const input = z.object(codeTargetShape).refine(hasTarget, { message: targetMessage });

/** Hover text is capped: a type can print as pages of generics. */
const maxHoverChars = 4000;

function hoverText(contents: Hover['contents']): string {
  const one = (item: MarkedString | MarkupContent): string =>
    typeof item === 'string' ? item : 'kind' in item ? item.value : `\`\`\`${item.language}\n${item.value}\n\`\`\``;
  const text = (Array.isArray(contents) ? contents.map(one) : [one(contents)]).join('\n\n').trim();
  return text.length > maxHoverChars ? `${text.slice(0, maxHoverChars)}…` : text;
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeHoverOutput = z.object({
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  hover: z
    .string()
    .nullable()
    .describe('Type and documentation as the server renders them (markdown); null when there is nothing there.'),
  /** Set when the symbol is defined outside the workspace: its text is then not shown. */
  defined_in: outsideNameSchema.exactOptional(),
});

export const codeHoverTool = defineCodeQuery({
  name: 'code_hover',
  description:
    'Type and documentation of a symbol through the language server, at a position (path, line, column; 1-based) or by name (symbol). ' +
    'For symbols defined outside the workspace only the package and file are given, not their text.',
  input,
  output: codeHoverOutput,
  async run({ client, uri, position, relPath }, _args, ctx) {
    const where = { path: relPath, line: position.line + 1, column: position.character + 1 };
    // Hover text is the declaration's own text and comments: for a declaration outside the
    // workspace that is outside content, so the definition is asked first.
    const definition = await client.request<Location | Location[] | LocationLink[]>(
      'textDocument/definition',
      { textDocument: { uri }, position },
      ctx.signal,
    );
    if (!definition.ok) return definition;
    const places = asLocations(definition.value).map((location) =>
      placeOf(location.uri, ctx.env.sandbox.workspaceRoot),
    );
    const outside = places.find((place) => !place.inside);
    if (outside !== undefined && !outside.inside && !places.some((place) => place.inside)) {
      return ok({ ...where, hover: null, defined_in: outsideName(outside) });
    }
    const answer = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position }, ctx.signal);
    if (!answer.ok) return answer;
    return ok({ ...where, hover: answer.value === null ? null : hoverText(answer.value.contents) || null });
  },
});
