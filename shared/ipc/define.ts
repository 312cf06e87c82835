import type { z } from 'zod';

/** A request/response call: what the renderer may send and what main promises to answer. */
export interface CallSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
}

export const defineCall = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): CallSpec<I, O> => ({
  input,
  output,
});
