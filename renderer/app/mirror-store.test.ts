import { describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../shared/result';
import { createContractApi } from '../test-support/contract-api';
import { createMirrorStore } from './mirror-store';

const tools = (memoryEnabled: boolean) => ({ memoryEnabled, tools: [] });

describe('createMirrorStore', () => {
  it('loads, follows pushes, and keeps the last good value beside a failure', async () => {
    const page = createContractApi({ 'tools.list': () => ok(tools(true)) });
    const { useStore, actions } = createMirrorStore('list', 'tools.list', 'tools.changed');
    expect(useStore.getState()).toEqual({ list: null, error: null });

    const stop = actions.connect(page.api);
    await vi.waitFor(() => expect(useStore.getState()).toEqual({ list: tools(true), error: null }));

    page.emit('tools.changed', tools(false));
    expect(useStore.getState().list).toEqual(tools(false));

    page.answer('tools.list', () => err('internal_error', 'down'));
    await actions.load(page.api);
    expect(useStore.getState().list).toEqual(tools(false));
    expect(useStore.getState().error?.code).toBe('internal_error');

    stop();
    page.emit('tools.changed', tools(true));
    expect(useStore.getState()).toMatchObject({ list: tools(false) });
  });

  it('reloadOn asks again on each named event, for a filtered one only when the payload matters, until stopped', async () => {
    let asked = 0;
    const page = createContractApi({
      'tools.list': () => {
        asked += 1;
        return ok(tools(asked % 2 === 1));
      },
    });
    const { useStore, actions } = createMirrorStore('list', 'tools.list');
    const stop = actions.reloadOn(page.api, ['tools.changed', 'settings.changed'], {
      'tools.changed': (payload) => payload.memoryEnabled,
    });
    await vi.waitFor(() => expect(asked).toBe(1));

    page.emit('tools.changed', tools(false));
    page.emit('tools.changed', tools(true));
    await vi.waitFor(() => expect(useStore.getState().list).toEqual(tools(false)));
    expect(asked).toBe(2);

    stop();
    page.emit('tools.changed', tools(true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toBe(2);
  });
});
