import type { ErrorCode } from '../../shared/errors';

/** What a call refused with `code` matches (toMatchObject): the result is an error with that code. */
export const refused = (code: ErrorCode) => ({ ok: false, error: { code } });
