import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { createStderrLogger } from '../logging/logger';
import { setAsideCopies } from '../../test-support/set-aside';
import { useTempDirs } from '../../test-support/temp-dir';
import { openSettingsStore } from './settings-store';

const tempDir = useTempDirs();
const quiet = createStderrLogger('test', () => undefined);

describe('settings store', () => {
  it('starts from defaults and persists updates section by section', async () => {
    const file = join(await tempDir(), 'settings.json');
    const store = await openSettingsStore(file, quiet);
    expect(store.get()).toEqual(defaultSettings());
    await store.update({ ui: { theme: 'dark' } });
    await store.update({
      memory: { enabled: false },
      provider: { kind: 'ollama', model: 'llama3.2', maxSteps: 5, contextWindow: 8192 },
    });
    const reopened = await openSettingsStore(file, quiet);
    expect(reopened.get()).toMatchObject({
      ui: { theme: 'dark', language: 'system' },
      memory: { enabled: false },
      provider: { kind: 'ollama', model: 'llama3.2' },
    });
  });

  it('tells subscribers the new and the previous settings', async () => {
    const store = await openSettingsStore(join(await tempDir(), 'settings.json'), quiet);
    const seen: boolean[][] = [];
    store.subscribe((next, previous) => seen.push([previous.memory.enabled, next.memory.enabled]));
    await store.update({ memory: { enabled: false } });
    expect(seen).toEqual([[true, false]]);
  });

  it('keeps an invalid file aside and falls back to defaults', async () => {
    const file = join(await tempDir(), 'settings.json');
    await writeFile(file, '{"ui": {"theme": "purple"}}');
    const store = await openSettingsStore(file, quiet);
    expect(store.get()).toEqual(defaultSettings());
    const aside = await setAsideCopies(file);
    expect(aside).toHaveLength(1);
    expect(await readFile(aside[0] ?? '', 'utf8')).toBe('{"ui": {"theme": "purple"}}');
  });

  it('rejects an update that breaks the schema and keeps the old settings', async () => {
    const store = await openSettingsStore(join(await tempDir(), 'settings.json'), quiet);
    await expect(store.update({ provider: { kind: 'openai', model: '' } as never })).rejects.toThrow();
    expect(store.get()).toEqual(defaultSettings());
  });
});
