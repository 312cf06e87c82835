import type { PolicyOperation } from '../../../shared/policy';

/**
 * One thing a call will do to one path: workspace-relative, POSIX separators, as the model wrote it.
 * Tools describe every call as a list of these (Tool.access), so the policy, not the tool, says
 * allow / ask / deny.
 */
export interface ToolAccess {
  readonly operation: PolicyOperation;
  readonly path: string;
}

/** Reading a file or running a command leaves files as they were; every other operation changes one. */
export const changesFile = (access: ToolAccess): boolean => access.operation !== 'read' && access.operation !== 'run';
