import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result';
import type { CallContext, Handlers } from './dispatcher';
import { createDispatcher } from './dispatcher';

const ctx: CallContext = { transport: 'direct', clientId: 'test' };
const info = {
  name: 'Familiar',
  version: '1.2.3',
  mode: 'browser' as const,
  platform: 'linux',
  workspacePath: '/ws',
  homePath: '/home',
};

function dispatcherWith(appInfo: Handlers['app.info']) {
  const logError = vi.fn();
  // Only app.info is exercised; the other calls are never dispatched here.
  const handlers = { 'app.info': appInfo } as Partial<Handlers> as Handlers;
  return { dispatch: createDispatcher(handlers, { logError }), logError };
}

describe('createDispatcher', () => {
  it('answers a valid call with the handler result', async () => {
    const { dispatch } = dispatcherWith(() => ok(info));
    expect(await dispatch('app.info', {}, ctx)).toEqual({ ok: true, value: info });
  });

  it('refuses an unknown call with unknown_call and never reaches a handler', async () => {
    const handler = vi.fn(() => ok(info));
    const { dispatch } = dispatcherWith(handler);
    for (const name of ['app.nope', '__proto__', 'constructor', 42, null]) {
      const result = await dispatch(name, {}, ctx);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('unknown_call');
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses an invalid payload with invalid_payload naming the call', async () => {
    const handler = vi.fn(() => ok(info));
    const { dispatch } = dispatcherWith(handler);
    for (const input of [undefined, 'x', [], { unexpected: true }]) {
      const result = await dispatch('app.info', input, ctx);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_payload', details: { call: 'app.info' } } });
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('turns a throwing handler into internal_error and logs it without leaking the message', async () => {
    const { dispatch, logError } = dispatcherWith(() => {
      throw new Error('secret detail');
    });
    const result = await dispatch('app.info', {}, ctx);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(JSON.stringify(result)).not.toContain('secret detail');
    expect(logError).toHaveBeenCalledOnce();
  });

  it('refuses to answer outside the output contract and strips undeclared fields', async () => {
    const bad = dispatcherWith(() => ok({ ...info, version: 3 } as never));
    expect(await bad.dispatch('app.info', {}, ctx)).toMatchObject({ ok: false, error: { code: 'internal_error' } });

    const leaky = dispatcherWith(() => ok({ ...info, apiKey: 'sk-123' }));
    const result = await leaky.dispatch('app.info', {}, ctx);
    expect(result).toEqual({ ok: true, value: info });
  });

  it('passes typed errors from handlers through unchanged', async () => {
    const { dispatch } = dispatcherWith(() => ({ ok: false, error: { code: 'not_found', message: 'gone' } }));
    expect(await dispatch('app.info', {}, ctx)).toEqual({ ok: false, error: { code: 'not_found', message: 'gone' } });
  });
});
