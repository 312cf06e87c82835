import { z } from 'zod';
import { familiarErrorSchema } from './errors';
import type { ErrorCode, FamiliarError } from './errors';

/** Errors are values: every fallible operation answers a Result instead of throwing. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: FamiliarError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = <T = never>(code: ErrorCode, message: string, details?: Record<string, unknown>): Result<T> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: familiarErrorSchema }),
  ]);
