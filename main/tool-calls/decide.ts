import type { Policy } from '../../shared/policy';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { changesFile } from '../domain/policy/access';
import { checkAccesses } from '../domain/policy/check-accesses';
import { guardedAgainstInjection, personaFileOf } from '../domain/policy/persona-rules';
import { provenanceWarning } from '../domain/policy/provenance';
import { confinementMode } from '../platform/processes/confinement';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import type { Allowances } from './allowances';
import type { Decided, Located } from './call-session';

export interface DecideInputs {
  readonly policy: Policy;
  readonly memoryOn: boolean;
  readonly allowances: Allowances;
  /** Workspace files and command output the model read this turn (provenance.ts). */
  readonly sourcesReadThisTurn: readonly string[];
  /** Settings → Commands: a confined command that can reach no host without asking runs without the question. */
  readonly confinedOfflineWithoutAsking: boolean;
  /** The user allowed some host for this conversation ("allow for this conversation" to a network question). */
  readonly hostsAllowedInConversation: boolean;
  /** The user's answers about MCP server tools; absent: every such tool asks. */
  readonly mcpApprovals?: McpApprovals;
}

/**
 * decide: the policy's verdict on every access. A denied access refuses the whole call; an 'ask'
 * not yet allowed for the conversation needs the user; a persona or memory change made after the
 * model read outside content needs the user too, with a warning naming what was read.
 */
export function decide(located: Located, inputs: DecideInputs): Result<Decided> {
  const { accesses, ctx } = located;
  const check = checkAccesses(inputs.policy, accesses, inputs.memoryOn, (access) =>
    inputs.allowances.covers(ctx.conversationId, ctx.env.workspaceRoot, access),
  );
  if (check.kind === 'refused') return err('permission_denied', check.message, check.details);

  const personaTargets = [
    ...new Set(accesses.filter(changesFile).flatMap((access) => personaFileOf(access.path) ?? [])),
  ];
  const guarded = accesses.some((access) => guardedAgainstInjection(inputs.policy, access));
  const warnings =
    guarded && inputs.sourcesReadThisTurn.length > 0 ? [provenanceWarning(inputs.sourcesReadThisTurn)] : [];
  // A command that would run with all of the user's rights (no OS confinement here) is always shown
  // first, whatever the policy or an earlier "allow" says (issue 28; SECURITY.md).
  const runs = accesses.some((access) => access.operation === 'run');
  const confined = confinementMode().confined;
  const unconfinedRun = runs && !confined;
  // Where the user turned it on: a confined command that can write only the workspace and reach no
  // host without a question (none allowed for this workspace or conversation) runs without asking.
  // Only a call that does nothing but run; the policy's deny still refuses (above).
  const offlineRun =
    inputs.confinedOfflineWithoutAsking &&
    runs &&
    confined &&
    accesses.every((access) => access.operation === 'run') &&
    !inputs.hostsAllowedInConversation &&
    !ctx.env.allowedHosts().some((entry) => entry.workspace === null || entry.workspace === ctx.env.workspaceRoot);
  // A server tool asks unless the user allowed it (issue 29): the policy table knows no servers.
  const mcp = located.tool.mcp;
  const mcpAsks = mcp !== undefined && inputs.mcpApprovals?.allowed(ctx.conversationId, mcp) !== true;
  return ok({
    ...located,
    personaTargets,
    warnings,
    needsApproval: (check.needsApproval && !offlineRun) || warnings.length > 0 || unconfinedRun || mcpAsks,
  });
}
