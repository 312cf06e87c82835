import type { z } from 'zod';
import { defaultPolicy } from '../shared/policy';
import { createApprovalBroker } from '../main/domain/approvals/broker';
import { createAuditLog } from '../main/platform/audit/audit-log';
import { createToolCalls } from '../main/tool-calls/tool-calls';
import type { AnyTool, Tool } from '../main/tools/define-tool';
import type { ToolEnvironment } from '../main/tools/kit/tool-environment';
import type { ToolLimits } from '../main/tools/kit/tool-limits';
import type { FamiliarPaths } from '../main/platform/storage/paths';
import { createToolServices } from '../main/tools/kit/tool-services';

/** The bench lists all 30k files in one call and makes many calls a minute: those caps are lifted. */
export const benchLimits = {
  maxListEntries: 1_000_000,
  maxResultChars: 1e9,
  callsPerMinute: 1_000_000,
  timeoutMs: 600_000,
} as const;

/**
 * Tool services as the app makes them, caps lifted. `searchIndex` answers whether search_in_code
 * may use its index (cold figures: never). BENCH_ENGINE=js: search_in_code's own engine even when
 * ripgrep is on PATH.
 */
export function benchServices(paths: FamiliarPaths, searchIndex: () => boolean = () => false) {
  return createToolServices({
    paths,
    limits: benchLimits,
    ...(process.env['BENCH_ENGINE'] === 'js' ? { searchEngine: 'js' as const } : {}),
    searchIndex,
  });
}

/**
 * Tool calls exactly as the app makes them: through the whole pipeline (arguments parsed, paths
 * located, the default policy, the approval stage in MCP's --approve mode, the run guard, the audit
 * line). Throws on an error result: a bench figure of a failed call would be a lie.
 */
export function benchToolCalls(tools: readonly AnyTool[], env: ToolEnvironment, auditDir: string, limits: ToolLimits) {
  const toolCalls = createToolCalls({
    tools,
    policy: defaultPolicy,
    memoryOn: () => true,
    environment: () => env,
    broker: createApprovalBroker({ onRequested: () => undefined, onResolved: () => undefined }),
    approvalMode: 'approve-all',
    audit: createAuditLog({ dir: auditDir }),
    limits,
    systemPrompt: () => Promise.resolve(''),
  });
  let counter = 0;
  const call = async <I extends z.ZodType, O>(tool: Tool<I, O>, args: z.input<I>): Promise<O> => {
    const result = await toolCalls.execute(
      { conversationId: 'bench', toolCallId: `bench-${(counter += 1)}`, name: tool.name, args },
      new AbortController().signal,
    );
    if (!result.ok) throw new Error(`${tool.name}: ${result.error.code} ${result.error.message}`);
    return result.value as O;
  };
  // The pipeline itself too, for the MCP server of bench/mcp-round-trip.ts.
  return Object.assign(call, { toolCalls });
}
