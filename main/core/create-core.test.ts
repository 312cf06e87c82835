import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultPolicy } from '../../shared/policy';
import type { EventName } from '../../shared/ipc/contract';
import { decoySecrets } from '../test-support/decoy-secrets';
import { useTempDirs } from '../test-support/temp-dir';
import { createCore } from './create-core';
import { createStderrLogger } from '../platform/logging/logger';
import { startScriptedEmbeddingsServer } from '../../e2e/fixtures/scripted-embeddings-server';

const tempDir = useTempDirs();

async function start(options: { approveAll?: boolean; visibleDefaultWorkspace?: string } = {}) {
  const home = await tempDir();
  const core = await createCore({
    visibleDefaultWorkspace: options.visibleDefaultWorkspace,
    ...(options.approveAll === true ? { approvalMode: 'approve-all' as const } : {}),
    home,
    mode: 'browser',
    version: '0.0.0',
    logger: createStderrLogger('test', () => undefined),
  });
  const events: [EventName, unknown][] = [];
  core.events.subscribe((name, payload) => events.push([name, payload]));
  const call = (name: string, input: unknown) => core.dispatch(name, input, { transport: 'direct', clientId: 'test' });
  return { home, core, call, events };
}

describe('core through the contract', () => {
  it('creates the persona files on first run and reports where they live', async () => {
    const { home, call } = await start();
    const info = await call('persona.info', {});
    expect(info).toMatchObject({
      ok: true,
      value: { dir: join(home, 'workspace'), dailyNotesDir: join(home, 'workspace', 'memory') },
    });
    if (!info.ok) return;
    const files = (info.value as { files: { name: string; path: string; exists: boolean; inPrompt: boolean }[] }).files;
    expect(files.map((file) => [file.name, file.exists, file.inPrompt])).toEqual([
      ['SOUL.md', true, true],
      ['USER.md', true, true],
      ['MEMORY.md', true, true],
      // The heartbeat's prompt: made on first run, never part of the system prompt.
      ['HEARTBEAT.md', true, false],
    ]);
    expect(await readFile(join(home, 'workspace', 'SOUL.md'), 'utf8')).toContain('You are Familiar');
  });

  it('makes a visible default workspace on first run, with the persona files, and opens it', async () => {
    const visible = join(await tempDir(), 'Familiar');
    const { core, call } = await start({ visibleDefaultWorkspace: visible });
    expect(core.workspace.current()).toBe(visible);
    expect(await call('persona.info', {})).toMatchObject({ ok: true, value: { dir: visible } });
    expect(await readFile(join(visible, 'SOUL.md'), 'utf8')).toContain('You are Familiar');
    await core.dispose('test over');
  });

  it('applies prompt caps changed in settings to the meters and the next prompt, and refuses one out of range', async () => {
    const { home, core, call } = await start();
    await writeFile(join(home, 'workspace', 'SOUL.md'), `# Soul\n${'Be kind and precise. '.repeat(150)}`);
    expect(await call('settings.update', { prompt: { perFile: 500 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
    expect(await call('settings.update', { prompt: { perFile: 1000 } })).toMatchObject({
      ok: true,
      value: { prompt: { perFile: 1000, userFile: 4000, total: 60_000 } },
    });
    const info = await call('persona.info', {});
    const soul = info.ok
      ? (info.value as { files: { cap: number; includedChars: number; omittedChars: number }[] }).files[0]
      : undefined;
    expect(soul?.cap).toBe(1000);
    expect(soul?.includedChars).toBeLessThanOrEqual(1000);
    expect(soul?.omittedChars).toBeGreaterThan(2000);
    const prompt = await core.assistant.toolCalls.systemPrompt('c-test-0001');
    expect(prompt).toMatch(/\[\.\.\.truncated: \d+ chars omitted, read_file SOUL\.md for the rest\]/);
  });

  it('hands run_command none of twenty secrets in its environment, and one the user names in settings', async () => {
    for (const [name, secret] of Object.entries(decoySecrets)) vi.stubEnv(name, secret);
    try {
      const { core, call } = await start({ approveAll: true });
      const env = async () => {
        const result = await core.assistant.toolCalls.execute(
          { conversationId: 'c-env', toolCallId: `t${Math.random()}`, name: 'run_command', args: { command: 'env' } },
          new AbortController().signal,
        );
        expect(result.ok, JSON.stringify(result)).toBe(true);
        return result.ok ? (result.value as { stdout: string }).stdout : '';
      };
      const before = await env();
      expect(before).toMatch(/^PATH=/m);
      for (const [name, secret] of Object.entries(decoySecrets)) {
        expect(before, name).not.toContain(name);
        expect(before, name).not.toContain(secret);
      }
      await call('settings.update', { commands: { passEnvironment: ['GH_TOKEN'] } });
      const after = await env();
      expect(after).toContain('GH_TOKEN=decoy-gh\n');
      expect(after).not.toContain('GEMINI_API_KEY');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('ranks semantic search with the embedding model the settings name, and reports the index progress', async () => {
    const embeddings = await startScriptedEmbeddingsServer({
      vectorOf: (text) => [text.length, 1],
      models: ['toy-embed'],
    });
    const { core, call, events } = await start({ approveAll: true });
    try {
      await writeFile(join(core.workspace.current(), 'note.md'), '# Lighthouses\n\nThe keeper lit the lamp.\n');
      const search = async () => {
        const result = await core.assistant.toolCalls.execute(
          {
            conversationId: 'c-s',
            toolCallId: `t${Math.random()}`,
            name: 'file_semantic_search',
            args: { query: 'lamp' },
          },
          new AbortController().signal,
        );
        expect(result.ok, JSON.stringify(result)).toBe(true);
        return result.ok ? (result.value as { ranking: string; results: { file: string }[] }) : undefined;
      };
      expect((await search())?.ranking).toBe('bm25');
      const provider = { kind: 'openai-compatible', model: 'chat', baseUrl: `${embeddings.url}/v1` };
      expect((await call('settings.update', { provider, search: { embeddingModel: 'toy-embed' } })).ok).toBe(true);
      const hybrid = await search();
      expect(hybrid?.ranking).toBe('hybrid');
      expect(hybrid?.results.map((hit) => hit.file)).toContain('note.md');
      expect(embeddings.requests.map((request) => request.model)).toContain('toy-embed');
      const progress = () => events.filter(([name]) => name === 'workspace.searchIndex').map(([, status]) => status);
      expect(progress()).toContainEqual(expect.objectContaining({ state: 'scanning' }));
      expect(progress()).toContainEqual(expect.objectContaining({ state: 'embedding' }));
      // The last progress event may follow the answer by a moment (the call's own end no longer
      // waits on the thread pool for its audit line).
      await vi.waitFor(() =>
        expect(progress().at(-1)).toMatchObject({
          state: 'ready',
          vectors: { model: expect.stringContaining('toy-embed') as string },
        }),
      );
    } finally {
      await core.dispose('test');
      await embeddings.close();
    }
  });

  it('flips the memory switch through settings and announces the new tool list', async () => {
    const { call, events } = await start();
    expect(await call('tools.list', {})).toMatchObject({ ok: true, value: { memoryEnabled: true } });
    await call('settings.update', { memory: { enabled: false } });
    expect(await call('tools.list', {})).toMatchObject({ ok: true, value: { memoryEnabled: false } });
    expect(events.map(([name]) => name)).toEqual(['settings.changed', 'tools.changed']);
    const info = await call('persona.info', {});
    const files = info.ok ? (info.value as { files: { name: string; inPrompt: boolean }[] }).files : [];
    expect(files.map((file) => file.inPrompt)).toEqual([true, false, false, false]);
  });

  it('refuses an invalid policy and keeps the current one; accepts and resets a valid one', async () => {
    const { home, call } = await start();
    const invalid = await call('policy.update', { policy: { version: 1, rules: [] } });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_policy' } });
    expect(await call('policy.get', {})).toMatchObject({
      ok: true,
      value: { policy: defaultPolicy(), loadError: null },
    });

    const stricter = defaultPolicy();
    stricter.rules.unshift({ pattern: 'private/**', decisions: { read: 'deny' }, memory: false });
    expect(await call('policy.update', { policy: stricter })).toMatchObject({ ok: true, value: { policy: stricter } });
    expect(JSON.parse(await readFile(join(home, 'policy.json'), 'utf8'))).toEqual(stricter);
    expect(await call('policy.reset', {})).toMatchObject({ ok: true, value: { policy: defaultPolicy() } });
  });

  it('answers not_found for an approval that is not pending', async () => {
    const { call } = await start();
    expect(await call('approvals.list', {})).toEqual({ ok: true, value: { pending: [] } });
    expect(await call('approvals.answer', { id: 'nope', decision: 'reject' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('persona history through the contract', () => {
  it("keeps the user's edit as a version and reverts to the original", async () => {
    const { home, call } = await start();
    const soul = join(home, 'workspace', 'SOUL.md');
    const original = await readFile(soul, 'utf8');
    expect(await call('persona.write', { file: 'SOUL.md', text: 'I am terse.\n' })).toMatchObject({
      ok: true,
      value: { author: 'user' },
    });
    const listed = await call('history.list', { file: 'SOUL.md' });
    if (!listed.ok) throw new Error('history.list failed');
    const { versions, current } = listed.value as { versions: { id: string; reason: string }[]; current: string };
    expect(current).toBe('I am terse.\n');
    expect(versions.map((version) => version.reason)).toEqual(['Edited in Familiar', 'Initial version']);
    expect(await call('history.revert', { file: 'SOUL.md', id: versions[1]?.id })).toMatchObject({ ok: true });
    expect(await readFile(soul, 'utf8')).toBe(original);
    const after = await call('history.list', { file: 'SOUL.md' });
    expect(after.ok && (after.value as { versions: unknown[] }).versions).toHaveLength(3);
  });

  it('keeps memory files read-only while memory is off, with history still readable', async () => {
    const { call } = await start();
    await call('settings.update', { memory: { enabled: false } });
    expect(await call('persona.write', { file: 'MEMORY.md', text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'permission_denied', details: { reason: 'memory_off' } },
    });
    expect(await call('history.list', { file: 'MEMORY.md' })).toMatchObject({ ok: true });
    expect(await call('persona.write', { file: 'SOUL.md', text: 'still mine' })).toMatchObject({ ok: true });
  });
});
