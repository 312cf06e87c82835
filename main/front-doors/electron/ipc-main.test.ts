import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { callChannel, eventChannel } from '../../../shared/ipc/channels';
import { callNames } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import { createEventHub } from '../../platform/ipc/event-hub';
import { forwardEvents, registerContractHandlers } from './ipc-main';
import { createSenderCheck } from './security';

type InvokeHandler = (event: IpcMainInvokeEvent, input: unknown) => unknown;

function fakeIpc() {
  const handlers = new Map<string, InvokeHandler>();
  return {
    handlers,
    ipc: { handle: (channel: string, handler: InvokeHandler) => void handlers.set(channel, handler) },
  };
}

const event = { sender: { id: 3 } } as unknown as IpcMainInvokeEvent;

describe('registerContractHandlers', () => {
  it('registers exactly one handler per contract call', () => {
    const { handlers, ipc } = fakeIpc();
    registerContractHandlers(ipc, vi.fn(), () => true);
    expect([...handlers.keys()].sort()).toEqual(callNames.map(callChannel).sort());
  });

  it('dispatches trusted calls by their contract name', async () => {
    const { handlers, ipc } = fakeIpc();
    const dispatch = vi.fn(() => Promise.resolve(ok('answer')));
    registerContractHandlers(ipc, dispatch, () => true);
    const result = await handlers.get(callChannel('app.info'))?.(event, { x: 1 });
    expect(result).toEqual(ok('answer'));
    expect(dispatch).toHaveBeenCalledWith('app.info', { x: 1 }, { transport: 'electron', clientId: '3' });
  });

  it('refuses calls from an untrusted sender without dispatching', async () => {
    const { handlers, ipc } = fakeIpc();
    const dispatch = vi.fn();
    registerContractHandlers(ipc, dispatch, () => false);
    const result = await handlers.get(callChannel('app.info'))?.(event, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(dispatch).not.toHaveBeenCalled();
  });
});

describe('IPC through the real sender check', () => {
  const page = { url: 'file:///opt/Familiar/resources/app.asar/out/renderer/index.html' };
  const from = (url: string, isMainFrame: boolean) =>
    ({ sender: { id: 7 }, senderFrame: { url, parent: isMainFrame ? null : {} } }) as unknown as IpcMainInvokeEvent;

  it('answers our main frame and refuses subframes, other pages and other files on every channel', async () => {
    const { handlers, ipc } = fakeIpc();
    const dispatch = vi.fn(() => Promise.resolve(ok('answer')));
    registerContractHandlers(ipc, dispatch, createSenderCheck(page));
    for (const channel of handlers.keys()) {
      const handle = handlers.get(channel)!;
      for (const event of [
        from(page.url, false),
        from('https://evil.example/', true),
        from('file:///tmp/downloaded.html', true),
      ]) {
        expect(await handle(event, {}), channel).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
      }
      expect(await handle(from(page.url, true), {})).toEqual(ok('answer'));
    }
    expect(dispatch).toHaveBeenCalledTimes(handlers.size);
  });
});

describe('forwardEvents', () => {
  it('sends events on their channel until unsubscribed or destroyed', () => {
    const hub = createEventHub(() => undefined);
    let destroyed = false;
    const contents = { send: vi.fn(), isDestroyed: () => destroyed };
    const stop = forwardEvents(hub, contents);
    hub.emit('app.shutdown', { reason: 'a' });
    destroyed = true;
    hub.emit('app.shutdown', { reason: 'b' });
    destroyed = false;
    stop();
    hub.emit('app.shutdown', { reason: 'c' });
    expect(contents.send.mock.calls).toEqual([[eventChannel('app.shutdown'), { reason: 'a' }]]);
  });
});
