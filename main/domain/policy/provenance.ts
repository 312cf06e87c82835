import type { ToolAccess } from './access';
import { personaFileOf } from './persona-rules';

/**
 * Prompt-injection guard: remembers, per conversation and turn, which workspace files and command
 * outputs the model has read, so a persona or memory change proposed after that can be flagged.
 */
export interface ProvenanceTracker {
  beginTurn(conversationId: string): void;
  noteContent(conversationId: string, toolName: string, accesses: readonly ToolAccess[]): void;
  /** Content from outside the workspace (an MCP server's answer), named as the user should see it. */
  noteSource(conversationId: string, source: string): void;
  /** The sources read so far this turn, as the user should see them; empty when none. */
  sources(conversationId: string): readonly string[];
}

const MAX_SOURCES_SHOWN = 8;

export function createProvenanceTracker(): ProvenanceTracker {
  const seen = new Map<string, Set<string>>();
  return {
    beginTurn: (conversationId) => void seen.delete(conversationId),
    noteContent(conversationId, toolName, accesses) {
      const set = seen.get(conversationId) ?? new Set<string>();
      for (const access of accesses) {
        if (access.operation === 'run') set.add(`output of ${toolName} in ${access.path}`);
        // Reading the persona files themselves is not outside influence.
        else if (access.operation === 'read' && personaFileOf(access.path) === undefined) set.add(access.path);
      }
      if (set.size > 0) seen.set(conversationId, set);
    },
    noteSource(conversationId, source) {
      seen.set(conversationId, (seen.get(conversationId) ?? new Set<string>()).add(source));
    },
    sources: (conversationId) => [...(seen.get(conversationId) ?? [])].slice(0, MAX_SOURCES_SHOWN),
  };
}

/** The warning an approval shows when content read this turn may be steering a persona change. */
export const provenanceWarning = (sources: readonly string[]): string =>
  `This change may be influenced by content read earlier in this turn: ${sources.join(', ')}. Text in files and command output can carry instructions that did not come from you.`;
