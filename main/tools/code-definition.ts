import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { ok } from '../../shared/result';
import { showLocations } from '../domain/lsp/render-locations';
import { codeTargetShape, defineCodeQuery, hasTarget, targetMessage } from './code/code-target';
import { shownLocationSchema } from './kit/output-shapes';

const input = z.object(codeTargetShape).refine(hasTarget, { message: targetMessage });

/** Definition answers come as Location, Location[] or LocationLink[]: one shape for the rest. */
export function asLocations(answer: Location | Location[] | LocationLink[] | null): Location[] {
  if (answer === null) return [];
  const list: (Location | LocationLink)[] = Array.isArray(answer) ? answer : [answer];
  return list.map((item) => ('targetUri' in item ? { uri: item.targetUri, range: item.targetSelectionRange } : item));
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const codeDefinitionOutput = z.object({
  path: z.string(),
  definitions: z.array(shownLocationSchema),
});

export const codeDefinitionTool = defineCodeQuery({
  name: 'code_definition',
  description:
    'Go to definition through the language server: where the symbol at a position (path, line, column; 1-based) or with a name (symbol, e.g. "Cart.total") is defined. ' +
    'Returns workspace-relative locations with the line text; a definition outside the workspace (library typings) is named by package and file only.',
  input,
  output: codeDefinitionOutput,
  async run({ client, uri, position, relPath }, _args, ctx) {
    const answer = await client.request<Location | Location[] | LocationLink[]>(
      'textDocument/definition',
      { textDocument: { uri }, position },
      ctx.signal,
    );
    if (!answer.ok) return answer;
    const shown = await showLocations(asLocations(answer.value), ctx.env.sandbox, 20);
    return ok({ path: relPath, definitions: shown.locations });
  },
});
