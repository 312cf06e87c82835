import { z } from 'zod';
import { resultSchema } from '../error-schemas';

/** Browser mode carries the same contract over one WebSocket; these are its frames. */
export const clientFrameSchema = z.object({
  kind: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(200),
  input: z.unknown(),
});
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const serverFrameSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    id: z.number().int().nonnegative(),
    result: resultSchema(z.unknown()),
  }),
  z.object({ kind: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** Close code the server uses when a frame is not a valid call frame (RFC 6455: policy violation). */
export const WS_POLICY_VIOLATION = 1008;
export const WS_TOKEN_PARAM = 'token';
export const WS_PATH = '/bridge';
