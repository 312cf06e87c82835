import { z } from 'zod';
import type { PolicyOperation } from '../../shared/policy';
import { onGivenPath } from '../tools/define-tool';
import type { Tool } from '../tools/define-tool';

const pathInput = z.object({ path: z.string() });
const noInput = z.object({});

/**
 * For tests of the tool-call pipeline (not shipped): a tool that makes one operation on the one
 * `path` it is given, as read_file or delete_file do. A test says only what it does and returns.
 */
export const pathTool = <Output>(
  name: string,
  operation: PolicyOperation,
  output: z.ZodType<Output>,
  behaviour: Pick<Tool<typeof pathInput, Output>, 'run' | 'prepare' | 'returnsContent'>,
): Tool<typeof pathInput, Output> => ({
  name,
  description: `A test tool: ${operation} the given path.`,
  input: pathInput,
  output,
  operations: [operation],
  access: onGivenPath(operation),
  ...behaviour,
});

/** For tests of the pipeline: a tool that takes no arguments and touches nothing in the workspace. */
export const pathlessTool = <Output>(
  name: string,
  output: z.ZodType<Output>,
  run: Tool<typeof noInput, Output>['run'],
): Tool<typeof noInput, Output> => ({
  name,
  description: 'A test tool.',
  input: noInput,
  output,
  operations: [],
  access: () => [],
  run,
});
