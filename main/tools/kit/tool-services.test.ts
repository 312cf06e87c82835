import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { familiarPaths } from '../../platform/storage/paths';
import { useTempDirs } from '../../test-support/temp-dir';
import { createReadTracker } from './read-tracker';
import { readFileTool } from '../read-file';
import { chooseSearchEngine, createToolEnvironment, createToolServices } from './tool-services';
import type { ToolServices } from './tool-services';

const tempDir = useTempDirs();
let services: ToolServices | undefined;
afterEach(() => services?.dispose());

describe('tool environments', () => {
  it('resolves the roots through symlinks and shares the long-lived parts between calls', async () => {
    const root = await tempDir();
    const paths = familiarPaths(join(root, 'home'));
    await mkdir(paths.defaultWorkspace, { recursive: true });
    await mkdir(join(root, 'real-project'));
    await symlink(join(root, 'real-project'), join(root, 'project-link'));
    services = createToolServices({ paths, limits: { maxOutputLines: 7 } });
    const one = await createToolEnvironment({ services, workspaceRoot: join(root, 'project-link') });
    const two = await createToolEnvironment({ services, workspaceRoot: join(root, 'project-link') });
    expect(one.workspaceRoot).toBe(join(root, 'real-project'));
    expect(one.personaDir).toBe(paths.defaultWorkspace);
    expect(one.limits.maxOutputLines).toBe(7);
    expect(one.limits.maxReadBytes).toBe(10 * 1024 * 1024);
    expect(one.readTracker).toBe(two.readTracker);
    expect(one.locks).toBe(two.locks);
    expect(one.isConcealed('MEMORY.md')).toBe(false);
  });

  it.each([
    [true, 2],
    [false, 0],
  ])('starts the search threads with the services when asked (%s), before any search', async (warm, threads) => {
    const root = await tempDir();
    services = createToolServices({
      paths: familiarPaths(join(root, 'home')),
      workerThreads: 2,
      warmSearchThreads: warm,
    });
    expect(services.workers.searchThreads()).toBe(threads);
  });

  it('takes a pool started before them: its warm threads serve searches, the call gate holds its index threads', async () => {
    const root = await tempDir();
    const early = createFsWorkerPool({ size: 2 });
    early.warm();
    services = createToolServices({
      paths: familiarPaths(join(root, 'home')),
      workers: early,
      warmSearchThreads: true,
    });
    expect(services.workers).toBe(early);
    expect(early.searchThreads()).toBe(2);
    // The flag index threads wait on (fs-worker.ts) is the one a call sets.
    expect(services.foreground.shared).toBe(early.hold);
    const leave = services.foreground.enter();
    expect(Atomics.load(early.hold, 0)).toBe(1);
    leave();
    await vi.waitFor(() => expect(Atomics.load(early.hold, 0)).toBe(0));
  });

  it('builds an environment for a missing workspace; tools then answer file_not_found', async () => {
    const root = await tempDir();
    services = createToolServices({ paths: familiarPaths(join(root, 'home')) });
    const env = await createToolEnvironment({ services, workspaceRoot: join(root, 'gone') });
    const result = await readFileTool.run(readFileTool.input.parse({ path: 'a.txt' }), {
      conversationId: 'c',
      signal: new AbortController().signal,
      env,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'file_not_found' } });
  });
});

describe('the read tracker', () => {
  it('forgets the least recently used conversations and files, and whole folders on request', () => {
    const tracker = createReadTracker({ maxConversations: 2, maxFilesPerConversation: 2 });
    const print = { size: 1, mtimeMs: 1, ctimeMs: 1, ino: 1 };
    tracker.remember('a', '/w/1', print);
    tracker.remember('b', '/w/1', print);
    tracker.remember('c', '/w/1', print);
    expect(tracker.seen('a', '/w/1')).toBeUndefined();
    expect(tracker.seen('b', '/w/1')).toEqual(print);
    tracker.remember('b', '/w/2', print);
    tracker.remember('b', '/w/dir/3', print);
    expect(tracker.seen('b', '/w/1')).toBeUndefined();
    tracker.forget('b', '/w/dir');
    expect(tracker.seen('b', '/w/dir/3')).toBeUndefined();
    expect(tracker.seen('b', '/w/2')).toEqual(print);
  });
});

describe('chooseSearchEngine', () => {
  const at = (...found: string[]) => ({
    env: { PATH: '/nonexistent/familiar-test-bin' },
    platform: 'linux' as const,
    isExecutable: (path: string) => found.includes(path),
  });

  it('prefers the packaged ripgrep, and says why the JavaScript engine searches', () => {
    const resourcesDir = '/opt/Familiar/resources';
    expect(chooseSearchEngine('auto', { resourcesDir, ...at('/opt/Familiar/resources/ripgrep/rg') })).toEqual({
      engine: 'ripgrep',
      source: 'bundled',
      path: '/opt/Familiar/resources/ripgrep/rg',
    });
    expect(chooseSearchEngine('js', { resourcesDir, ...at('/opt/Familiar/resources/ripgrep/rg') })).toEqual({
      engine: 'js',
      reason: 'off',
    });
    expect(chooseSearchEngine(undefined, { resourcesDir, ...at() })).toEqual({ engine: 'js', reason: 'missing' });
  });
});
