import type { CallInput, CallName, CallOutput, FamiliarApi } from '../../shared/ipc/contract';
import { serverFrameSchema } from '../../shared/ipc/ws-protocol';
import type { ClientFrame } from '../../shared/ipc/ws-protocol';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';
import { addEventListener } from './event-listeners';
import type { EventListeners } from './event-listeners';

export type BridgeStatus = 'connecting' | 'open' | 'closed';

export interface BridgeClient extends FamiliarApi {
  readonly status: () => BridgeStatus;
  readonly onStatus: (listener: (status: BridgeStatus) => void) => () => void;
  readonly close: () => void;
}

const MAX_RETRY_DELAY_MS = 10_000;

/**
 * Browser mode's stand-in for the preload: the same FamiliarApi carried over a WebSocket.
 * Calls made while the socket is down answer `disconnected` instead of hanging; it reconnects
 * with backoff because the server may just be restarting.
 */
export function createBridgeClient(url: string, makeSocket = (target: string) => new WebSocket(target)): BridgeClient {
  let socket: WebSocket;
  let status: BridgeStatus = 'connecting';
  let nextId = 1;
  let retryDelay = 500;
  let closedByUs = false;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const queued: ClientFrame[] = [];
  const listeners: EventListeners = new Map();
  const statusListeners = new Set<(status: BridgeStatus) => void>();

  const setStatus = (next: BridgeStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const connect = () => {
    socket = makeSocket(url);
    socket.addEventListener('open', () => {
      retryDelay = 500;
      setStatus('open');
      for (const frame of queued.splice(0)) socket.send(JSON.stringify(frame));
    });
    socket.addEventListener('message', (message: MessageEvent<unknown>) => {
      let data: unknown;
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      const parsed = serverFrameSchema.safeParse(data);
      if (!parsed.success) return;
      const frame = parsed.data;
      if (frame.kind === 'result') {
        pending.get(frame.id)?.(frame.result);
        pending.delete(frame.id);
      } else {
        for (const listener of listeners.get(frame.name) ?? []) listener(frame.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const resolve of pending.values()) resolve(err('disconnected', 'The connection to Familiar was lost.'));
      pending.clear();
      queued.length = 0;
      setStatus('closed');
      if (closedByUs) return;
      setTimeout(() => {
        setStatus('connecting');
        connect();
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY_MS);
    });
  };
  connect();

  return {
    invoke<N extends CallName>(name: N, input: CallInput<N>) {
      if (status === 'closed') return Promise.resolve(err('disconnected', 'Familiar is not connected.'));
      const frame: ClientFrame = { kind: 'call', id: nextId++, name, input };
      // The server parsed the answer against this call's output schema before sending it.
      return new Promise<Result<CallOutput<N>>>((resolve) => {
        pending.set(frame.id, resolve as (result: Result<unknown>) => void);
        if (status === 'open') socket.send(JSON.stringify(frame));
        else queued.push(frame);
      });
    },
    on: (event, listener) => addEventListener(listeners, event, listener),
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    close() {
      closedByUs = true;
      socket.close();
    },
  };
}
