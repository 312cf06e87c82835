import type { ToolAccess } from '../domain/policy/access';
import { allowanceKey } from '../domain/policy/check-accesses';
import { alwaysAsked } from '../domain/policy/persona-rules';

/** The user's "allow this for the rest of the conversation" answers, per conversation. */
export interface Allowances {
  covers(conversationId: string, workspaceRoot: string, access: ToolAccess): boolean;
  grant(conversationId: string, workspaceRoot: string, accesses: readonly ToolAccess[]): void;
}

export function createAllowances(): Allowances {
  const byConversation = new Map<string, Set<string>>();
  return {
    covers: (conversationId, workspaceRoot, access) =>
      byConversation.get(conversationId)?.has(allowanceKey(workspaceRoot, access)) === true,
    grant(conversationId, workspaceRoot, accesses) {
      const set = byConversation.get(conversationId) ?? new Set<string>();
      // SOUL.md changes are asked about every time, whatever was answered before.
      for (const access of accesses) if (!alwaysAsked(access)) set.add(allowanceKey(workspaceRoot, access));
      byConversation.set(conversationId, set);
    },
  };
}
