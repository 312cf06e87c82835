import type { WebSocket } from 'ws';
import { isEventName } from '../../../shared/ipc/contract';
import { err } from '../../../shared/result';
import { clientFrameSchema, WS_POLICY_VIOLATION } from '../../../shared/ipc/ws-protocol';
import type { ServerFrame } from '../../../shared/ipc/ws-protocol';
import type { Dispatch } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';

/**
 * Carries the contract over one WebSocket: call frames in, result and event frames out.
 * The socket is as untrusted as the renderer: a frame that is not a call frame closes it.
 */
export function bridgeSocket(socket: WebSocket, clientId: string, dispatch: Dispatch, events: EventHub): void {
  const send = (frame: ServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const unsubscribe = events.subscribe((name, payload) => {
    if (isEventName(name)) send({ kind: 'event', name, payload });
  });
  socket.on('close', unsubscribe);
  // A malformed frame (bad opcode, reserved bits, unmasked, invalid UTF-8, over maxPayload) makes ws
  // close this socket with the matching code (1002, 1007, 1009) and then emit 'error'. Without a
  // listener that error would be thrown and take the whole process, every other client with it.
  // Nothing more to do here: ws has sent the close frame and destroys the socket once the peer
  // answers or its close timeout passes; terminating now could drop the close frame unsent.
  socket.on('error', () => undefined);
  socket.on('message', (data, isBinary) => {
    let frame: unknown;
    try {
      const text = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      frame = isBinary ? undefined : JSON.parse(text.toString('utf8'));
    } catch {
      frame = undefined;
    }
    const parsed = clientFrameSchema.safeParse(frame);
    if (!parsed.success) {
      socket.close(WS_POLICY_VIOLATION, 'Malformed frame');
      return;
    }
    const { id, name, input } = parsed.data;
    dispatch(name, input, { transport: 'browser', clientId })
      .then((result) => send({ kind: 'result', id, result }))
      // An unhandled rejection ends a Node process: a failing call answers its caller instead.
      .catch((error: unknown) => send({ kind: 'result', id, result: err('internal_error', String(error)) }));
  });
}
