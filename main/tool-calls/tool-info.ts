import type { ToolInfo } from '../../shared/ipc/assistant';
import type { Policy } from '../../shared/policy';
import type { AnyTool } from '../tools/define-tool';

/** What the tools panel shows: per operation, the policy rows that can decide it right now. */
export function describeTools(tools: readonly AnyTool[], policy: Policy, memoryEnabled: boolean): ToolInfo[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    memoryOnly: tool.memoryOnly === true,
    operations: tool.operations.map((operation) => ({
      operation,
      rules: policy.rules.flatMap((rule) => {
        const decision = rule.decisions[operation];
        if (decision === undefined) return [];
        // With memory off a memory row refuses its paths outright.
        if (rule.memory && !memoryEnabled) return [{ pattern: rule.pattern, decision: 'deny' as const }];
        return [{ pattern: rule.pattern, decision }];
      }),
    })),
  }));
}
