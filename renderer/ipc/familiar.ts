import type { FamiliarApi } from '../../shared/ipc/contract';
import { WS_PATH, WS_TOKEN_PARAM } from '../../shared/ipc/ws-protocol';
import { createBridgeClient } from './bridge-client';
import type { BridgeStatus } from './bridge-client';

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent in browser mode. */
    readonly familiar?: FamiliarApi;
  }
}

export interface Connection {
  readonly api: FamiliarApi;
  readonly status: () => BridgeStatus;
  readonly onStatus: (listener: (status: BridgeStatus) => void) => () => void;
}

/**
 * The one place the page finds its API: the preload's object in the desktop app, the
 * WebSocket bridge in browser mode. Everything else in the renderer imports from here.
 */
function connect(): Connection {
  if (window.familiar !== undefined) {
    return { api: window.familiar, status: () => 'open', onStatus: () => () => undefined };
  }
  const token = new URLSearchParams(window.location.search).get(WS_TOKEN_PARAM) ?? '';
  const url = `ws://${window.location.host}${WS_PATH}?${WS_TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const client = createBridgeClient(url);
  return { api: client, status: client.status, onStatus: client.onStatus };
}

export const connection: Connection = connect();
export const familiar: FamiliarApi = connection.api;
