import type { ToolAccess } from '../domain/policy/access';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { Admitted, Located } from './call-session';

/**
 * The policy decides on where a path really leads too: a symlink 'notes.md' -> SOUL.md is checked
 * as SOUL.md (the stricter rule wins, since both names stay in the list).
 */
async function withRealNames(env: ToolEnvironment, accesses: readonly ToolAccess[]): Promise<ToolAccess[]> {
  const extra = await Promise.all(
    accesses.map(async (access) => {
      const resolved = await env.sandbox.resolve(access.path, 'read');
      if (!resolved.ok) return [];
      const real = resolved.value.realRel;
      return real === resolved.value.relPath ? [] : [{ operation: access.operation, path: real }];
    }),
  );
  return [...accesses, ...extra.flat()];
}

/** locate: the environment this call runs in (open folder, memory switch) and the paths it touches. */
export async function locate(admitted: Admitted, env: ToolEnvironment): Promise<Located> {
  const accesses = await withRealNames(env, admitted.tool.access(admitted.args));
  return {
    ...admitted,
    ctx: {
      conversationId: admitted.request.conversationId,
      toolCallId: admitted.request.toolCallId,
      signal: admitted.signal,
      env,
      ...(admitted.hooks?.progress === undefined ? {} : { progress: admitted.hooks.progress }),
    },
    accesses,
    paths: [...new Set(accesses.map((access) => access.path))],
  };
}
