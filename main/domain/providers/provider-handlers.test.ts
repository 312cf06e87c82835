import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../../e2e/fixtures/scripted-llm-server';
import type { Core } from '../../core/create-core';
import { createStderrLogger } from '../../platform/logging/logger';
import type { CallContext } from '../../platform/ipc/dispatcher';
import { useTempDirs } from '../../test-support/temp-dir';
import { createTestCore } from '../../test-support/test-core';

const tempDir = useTempDirs();
const ctx: CallContext = { transport: 'direct', clientId: 'test' };
const KEY = 'sk-test-provider-key-98765';

const servers: ScriptedLlmServer[] = [];
const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose('test over')));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: { apiKey?: string; models?: string[]; visionModels?: string[] } = {}) {
  const server = await startScriptedLlmServer(options);
  servers.push(server);
  const logLines: string[] = [];
  const home = await tempDir();
  const core = await createTestCore({
    home,
    logger: createStderrLogger('test', (line) => logLines.push(line)),
  });
  cores.push(core);
  const seen: unknown[] = [];
  core.events.subscribe((name, payload) => seen.push({ name, payload }));
  const call = async (name: string, input: unknown) => {
    const result = await core.dispatch(name, input, ctx);
    seen.push(result);
    return result;
  };
  const provider = { kind: 'openai-compatible', model: 'scripted-model', baseUrl: `${server.url}/v1` };
  return { server, core, home, call, seen, logLines, provider };
}

describe('provider setup through the contract', () => {
  it('starts unconfigured and warns that browser-mode keys are a plain 0600 file', async () => {
    const { call } = await start();
    expect(await call('providers.status', {})).toEqual({
      ok: true,
      value: { provider: null, hasApiKey: false, needsApiKey: false, configured: false, keyStorage: 'plaintext-file' },
    });
  });

  it('saves settings and a write-only key that never comes back out', async () => {
    const { call, seen, home, logLines } = await start();
    const saved = await call('providers.save', {
      provider: { kind: 'openai', model: 'gpt-test', maxSteps: 8 },
      apiKey: KEY,
    });
    expect(saved).toMatchObject({
      ok: true,
      value: {
        provider: { kind: 'openai', model: 'gpt-test', maxSteps: 8 },
        hasApiKey: true,
        needsApiKey: true,
        configured: true,
      },
    });
    await call('settings.get', {});
    await call('providers.status', {});
    // Not in any answer or event, not in settings.json, not in the logs; only in secrets.json.
    expect(JSON.stringify(seen)).not.toContain(KEY);
    expect(await readFile(join(home, 'settings.json'), 'utf8')).not.toContain(KEY);
    expect(await readFile(join(home, 'secrets.json'), 'utf8')).toContain(KEY);
    expect(logLines.join('')).not.toContain(KEY);

    // Absent keeps the key, null deletes it.
    await call('providers.save', { provider: { kind: 'openai', model: 'gpt-other' } });
    expect(await call('providers.status', {})).toMatchObject({ value: { hasApiKey: true } });
    await call('providers.save', { provider: { kind: 'openai', model: 'gpt-other' }, apiKey: null });
    expect(await call('providers.status', {})).toMatchObject({ value: { hasApiKey: false, configured: false } });
  });

  it('refuses an OpenAI-compatible provider without a base URL', async () => {
    const { call } = await start();
    expect(await call('providers.save', { provider: { kind: 'openai-compatible', model: 'x' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
  });

  it('tests a connection by streaming one token and hanging up', async () => {
    const { call, server, provider } = await start();
    server.enqueue(reply.text(`ready ${'and much more '.repeat(200)}`, { chunkDelayMs: 5 }));
    const tested = await call('providers.test', { provider });
    expect(tested).toMatchObject({ ok: true, value: { model: 'scripted-model', sample: 'read' } });
    await server.requests[0]?.done;
    expect(server.requests[0]?.closedEarly).toBe(true);
  });

  it('reports a bad key as auth_failed without echoing it, and an unsaved key is used only for the test', async () => {
    const { call, server, seen, provider } = await start({ apiKey: 'the-right-key-123' });
    const wrong = await call('providers.test', { provider, apiKey: KEY });
    expect(wrong).toMatchObject({
      ok: false,
      error: { code: 'auth_failed', details: { retryable: false, status: 401 } },
    });
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(seen)).not.toContain(KEY);
    server.enqueue(reply.text('ready'));
    expect(await call('providers.test', { provider, apiKey: 'the-right-key-123' })).toMatchObject({ ok: true });
    expect(await call('providers.status', {})).toMatchObject({ value: { provider: null } });
  });

  it('reports rate limits with the wait, and a server that is down', async () => {
    const { call, server, provider } = await start();
    server.enqueue(reply.httpError(429, 'Too many requests', 30));
    expect(await call('providers.test', { provider })).toMatchObject({
      ok: false,
      error: { code: 'provider_rate_limited', details: { retryAfterSeconds: 30 } },
    });
    const down = await startScriptedLlmServer();
    await down.close();
    expect(await call('providers.test', { provider: { ...provider, baseUrl: `${down.url}/v1` } })).toMatchObject({
      ok: false,
      error: { code: 'network_error' },
    });
  });

  it('detects an Ollama server and lists its models; a silent port means not running', async () => {
    const { call, server } = await start({ models: ['llama3.2:latest', 'qwen2.5:7b'] });
    expect(await call('providers.detectOllama', { baseUrl: `${server.url}/v1` })).toEqual({
      ok: true,
      value: {
        running: true,
        baseUrl: `${server.url}/v1`,
        models: [
          { name: 'llama3.2:latest', sizeBytes: 1_000_000 },
          { name: 'qwen2.5:7b', sizeBytes: 1_000_000 },
        ],
      },
    });
    const down = await startScriptedLlmServer();
    await down.close();
    expect(await call('providers.detectOllama', { baseUrl: down.url })).toEqual({
      ok: true,
      value: { running: false, baseUrl: `${down.url}/v1`, models: [] },
    });
  });

  it('says which Ollama models take images when the server reports capabilities', async () => {
    const { call, server } = await start({ models: ['llava:7b', 'llama3.2:latest'], visionModels: ['llava:7b'] });
    expect(await call('providers.detectOllama', { baseUrl: server.url })).toMatchObject({
      ok: true,
      value: {
        models: [
          { name: 'llava:7b', vision: true },
          { name: 'llama3.2:latest', vision: false },
        ],
      },
    });
  });
});
