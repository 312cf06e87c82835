import type { Policy } from '../../shared/policy';
import type { ToolAccess } from '../tools/define-tool';
import { decide, normalizePolicyPath } from './decide';

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
  allowedForConversation: ReadonlySet<string> | undefined,
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
    if (verdict.decision === 'ask' && allowedForConversation?.has(normalizePolicyPath(access.path)) !== true) {
      needsApproval = true;
    }
  }
  return { kind: 'allowed', needsApproval };
}
