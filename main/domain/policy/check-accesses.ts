import type { Policy } from '../../../shared/policy';
import type { ToolAccess } from './access';
import { decide, normalizePolicyPath } from './decide';
import { alwaysAsked } from './persona-rules';

/**
 * An allowance covers one operation on one path in one workspace folder: allowing an edit of a file
 * does not allow deleting it, and nothing carries over to another folder opened later.
 */
export const allowanceKey = (workspaceRoot: string, access: ToolAccess): string =>
  `${workspaceRoot}\0${access.operation}\0${normalizePolicyPath(access.path)}`;

/**
 * Commands are never allowed wholesale (every run_command and git_commit is shown to the user), and
 * neither is a SOUL.md change (persona-rules.ts).
 */
export const canAllowForConversation = (accesses: readonly ToolAccess[]): boolean =>
  accesses.every((access) => access.operation !== 'run' && !alwaysAsked(access));

export type AccessCheck =
  | { readonly kind: 'refused'; readonly message: string; readonly details: Record<string, unknown> }
  | { readonly kind: 'allowed'; readonly needsApproval: boolean };

/**
 * The policy's answer for a whole call: refused if any access is denied (memory-gated paths while
 * memory is off are refused naming the switch), otherwise whether any access needs the user.
 */
export function checkAccesses(
  policy: Policy,
  accesses: readonly ToolAccess[],
  memoryEnabled: boolean,
  /** The user's "allow for this conversation" answers: which asks are already settled. */
  allowedForConversation: (access: ToolAccess) => boolean,
): AccessCheck {
  let needsApproval = false;
  for (const access of accesses) {
    const verdict = decide(policy, access.operation, access.path, memoryEnabled);
    if (verdict.memoryOff) {
      return {
        kind: 'refused',
        message: `${access.path} is part of the user's memory, and the user has switched memory off. Do not try to reach it another way.`,
        details: { path: access.path, reason: 'memory_off' },
      };
    }
    if (verdict.decision === 'deny') {
      return {
        kind: 'refused',
        message: `The permission policy does not allow ${access.operation} on ${access.path}.`,
        details: { path: access.path, operation: access.operation },
      };
    }
    if (verdict.decision === 'ask' && !allowedForConversation(access)) {
      needsApproval = true;
    }
  }
  return { kind: 'allowed', needsApproval };
}
