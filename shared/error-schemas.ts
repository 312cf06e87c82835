import { z } from 'zod';
import { errorCodes } from './errors';
import type { ErrorCode, FamiliarError } from './errors';

/** The zod side of errors.ts and result.ts (kept apart so those two load no zod). */
export const errorCodeSchema = z.enum(errorCodes) satisfies z.ZodType<ErrorCode>;

export const familiarErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
}) satisfies z.ZodType<FamiliarError>;

export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: familiarErrorSchema }),
  ]);
