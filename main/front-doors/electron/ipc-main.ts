import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { callNames } from '../../../shared/ipc/contract';
import { callChannel, eventChannel } from '../../../shared/ipc/channels';
import { err } from '../../../shared/result';
import type { Dispatch } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * Registers every contract call on ipcMain in one loop: no channel is wired by hand, so the
 * desktop app and browser mode answer exactly the same calls through the same dispatcher.
 */
export function registerContractHandlers(
  ipc: Pick<IpcMain, 'handle'>,
  dispatch: Dispatch,
  isTrustedSender: SenderCheck,
): void {
  for (const name of callNames) {
    ipc.handle(callChannel(name), (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        return err('forbidden_sender', 'This call did not come from the Familiar window.');
      }
      return dispatch(name, input, { transport: 'electron', clientId: String(event.sender.id) });
    });
  }
}

/** Forwards every contract event to one window; returns the unsubscribe. */
export function forwardEvents(events: EventHub, contents: Pick<WebContents, 'send' | 'isDestroyed'>): () => void {
  return events.subscribe((name, payload) => {
    if (!contents.isDestroyed()) contents.send(eventChannel(name), payload);
  });
}
