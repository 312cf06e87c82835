import { contextBridge, ipcRenderer } from 'electron';
import { callChannel, eventChannel } from '../shared/ipc/channels';
import { isCallName, isEventName } from '../shared/ipc/contract';
import type { FamiliarApi } from '../shared/ipc/contract';
import { err } from '../shared/result';

/**
 * The page's only door to main. It exposes two functions built from the contract's names;
 * ipcRenderer itself never reaches the page.
 */
const familiar: FamiliarApi = {
  invoke(name, input) {
    if (!isCallName(name)) return Promise.resolve(err('unknown_call', `There is no call named ${String(name)}.`));
    return ipcRenderer.invoke(callChannel(name), input);
  },
  on(event, listener) {
    if (!isEventName(event)) throw new TypeError(`There is no event named ${String(event)}.`);
    const channel = eventChannel(event);
    const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
};

contextBridge.exposeInMainWorld('familiar', familiar);
