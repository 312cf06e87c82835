import type { ErrorCode, FamiliarError } from './errors';

/** Errors are values: every fallible operation answers a Result instead of throwing. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: FamiliarError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = <T = never>(code: ErrorCode, message: string, details?: Record<string, unknown>): Result<T> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});
