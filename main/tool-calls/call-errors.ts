import { messageOf } from '../../shared/errors';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';

/**
 * The one place an exception becomes a value. A throw is a fault in Familiar (a tool, a prepare(),
 * the pipeline itself), never in the call: the model or MCP client reads internal_error and goes on.
 */
export const internalError = <T = never>(what: string, error: unknown): Result<T> =>
  err(
    'internal_error',
    `${what} failed unexpectedly (${messageOf(error)}). This is a fault in Familiar, not in your call; try another way.`,
  );

export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
