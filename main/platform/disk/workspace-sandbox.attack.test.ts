import { execFileSync } from 'node:child_process';
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../tools/read-file';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import { createToolEnvironment } from '../../tools/kit/tool-services';
import { writeFileTool } from '../../tools/write-file';
import { useTempDirs } from '../../test-support/temp-dir';
import { asTextRead, readText } from '../../test-support/read-text';
import { isInside } from './anchored-resolve';

/**
 * The attack suite: every way out of the workspace we could think of, tried through the real
 * tools on real files. Layout: <tmp>/project (the workspace), <tmp>/project-evil (prefix
 * collision), <tmp>/outside (secrets), <tmp>/home (Familiar's data).
 */
const tempDir = useTempDirs();
let kit: ToolKit;
let outside: string;
let evil: string;

beforeEach(async () => {
  kit = await createToolKit(tempDir);
  outside = join(kit.workspace, '..', 'outside');
  evil = `${kit.workspace}-evil`;
  await mkdir(outside, { recursive: true });
  await mkdir(evil, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET');
  await writeFile(join(evil, 'secret.txt'), 'EVIL SECRET');
  await writeFile(join(kit.workspace, 'ok.txt'), 'fine');
});
afterEach(() => kit.dispose());

const code = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error!.code);

describe('sandbox attack suite', () => {
  it.each([
    '../outside/secret.txt',
    '../project-evil/secret.txt',
    'sub/../../outside/secret.txt',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    '\\\\host\\share\\secret.txt',
    'ok.txt\0.png',
  ])('refuses %j with invalid_path before touching the disk', async (path) => {
    expect(code(await kit.call(readFileTool, { path }))).toBe('invalid_path');
    expect(code(await kit.call(writeFileTool, { path, content: 'pwned' }))).toBe('invalid_path');
  });

  it('does not take /ws-evil for a part of /ws (no string-prefix check)', async () => {
    expect(isInside(kit.workspace, evil)).toBe(false);
    expect(isInside(kit.workspace, join(kit.workspace, 'x'))).toBe(true);
    expect(isInside(kit.workspace, join(kit.workspace, '..x'))).toBe(true);
    await symlink(evil, join(kit.workspace, 'evil-link'));
    expect(code(await kit.call(readFileTool, { path: 'evil-link/secret.txt' }))).toBe('symlink_escape');
  });

  it('refuses a symlink to a file outside, for reads and writes', async () => {
    await symlink(join(outside, 'secret.txt'), join(kit.workspace, 'leak.txt'));
    expect(code(await kit.call(readFileTool, { path: 'leak.txt' }))).toBe('symlink_escape');
    expect(code(await kit.call(writeFileTool, { path: 'leak.txt', content: 'pwned' }))).toBe('symlink_escape');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
  });

  it('refuses a symlinked directory leading outside, and a new file under it', async () => {
    await symlink(outside, join(kit.workspace, 'out'));
    expect(code(await kit.call(readFileTool, { path: 'out/secret.txt' }))).toBe('symlink_escape');
    expect(code(await kit.call(writeFileTool, { path: 'out/new.txt', content: 'pwned' }))).toBe('symlink_escape');
    expect(code(await kit.call(writeFileTool, { path: 'out/deeper/new.txt', content: 'pwned' }))).toBe(
      'symlink_escape',
    );
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
  });

  it('refuses a chain of symlinks that ends outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(kit.workspace, 'c3'));
    await symlink('c3', join(kit.workspace, 'c2'));
    await symlink(join(kit.workspace, 'c2'), join(kit.workspace, 'c1'));
    expect(code(await kit.call(readFileTool, { path: 'c1' }))).toBe('symlink_escape');
  });

  it('follows a chain that stays inside', async () => {
    await symlink('ok.txt', join(kit.workspace, 'i2'));
    await symlink('i2', join(kit.workspace, 'i1'));
    const read = await readText(kit, { path: 'i1' });
    expect(read.ok && read.value.content).toBe('fine');
  });

  it('refuses writing through a dangling symlink that points outside (no file is created there)', async () => {
    await symlink(join(outside, 'planted.txt'), join(kit.workspace, 'dangling'));
    expect(code(await kit.call(writeFileTool, { path: 'dangling', content: 'pwned' }))).toBe('symlink_escape');
    await expect(readFile(join(outside, 'planted.txt'))).rejects.toThrow();
  });

  it('refuses a symlink loop', async () => {
    await symlink('loop-b', join(kit.workspace, 'loop-a'));
    await symlink('loop-a', join(kit.workspace, 'loop-b'));
    expect(code(await kit.call(readFileTool, { path: 'loop-a' }))).toBe('invalid_path');
  });

  it('answers not_a_file for a FIFO (the read does not hang) and a socket', async () => {
    execFileSync('mkfifo', [join(kit.workspace, 'pipe')]);
    expect(code(await kit.call(readFileTool, { path: 'pipe' }))).toBe('not_a_file');
    expect(code(await kit.call(writeFileTool, { path: 'pipe', content: 'x' }))).toBe('not_a_file');
    const socketPath = join(kit.workspace, 'sock');
    const server = createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect(code(await kit.call(readFileTool, { path: 'sock' }))).toBe('not_a_file');
    } finally {
      server.close();
    }
  });

  it('answers not_a_file for a device reached through a symlink inside the workspace', async () => {
    // /dev/zero is outside, so the symlink itself is refused; a device node cannot be made without root.
    await symlink('/dev/zero', join(kit.workspace, 'zero'));
    expect(code(await kit.call(readFileTool, { path: 'zero' }))).toBe('symlink_escape');
  });

  it.each([
    '.env',
    '.env.local',
    'config/.env.production',
    'certs/server.pem',
    'keys/api.key',
    '.ssh/id_rsa',
    'id_rsa.pub',
  ])('refuses the sensitive file %s even inside the workspace', async (path) => {
    await mkdir(join(kit.workspace, path, '..'), { recursive: true });
    await writeFile(join(kit.workspace, path), 'SECRET=1');
    expect(code(await kit.call(readFileTool, { path }))).toBe('permission_denied');
    expect(code(await kit.call(writeFileTool, { path, content: 'x' }))).toBe('permission_denied');
  });

  it('takes persona names in any case for the persona files, never the project’s own', async () => {
    await writeFile(join(kit.personaDir, 'SOUL.md'), 'the persona\n');
    await mkdir(join(kit.personaDir, 'memory'), { recursive: true });
    await writeFile(join(kit.personaDir, 'memory', 'note.md'), 'a note\n');
    await writeFile(join(kit.workspace, 'soul.md'), 'the project file\n');
    const soul = await readText(kit, { path: 'soul.md' });
    expect(soul.ok && soul.value.content).toBe('the persona');
    const note = await readText(kit, { path: 'Memory/note.md' });
    expect(note.ok && note.value.content).toBe('a note');
    expect(code(await kit.call(writeFileTool, { path: 'Soul.MD', content: 'x' }))).toBe('ok');
    expect(await readFile(join(kit.personaDir, 'SOUL.md'), 'utf8')).toBe('x');
    expect(await readFile(join(kit.workspace, 'soul.md'), 'utf8')).toBe('the project file\n');
  });

  it('refuses a symlink that gives a sensitive file another name', async () => {
    await writeFile(join(kit.workspace, '.env'), 'SECRET=1');
    await symlink('.env', join(kit.workspace, 'innocent.txt'));
    expect(code(await kit.call(readFileTool, { path: 'innocent.txt' }))).toBe('permission_denied');
  });

  it('lets the assistant read .git but never write it', async () => {
    await mkdir(join(kit.workspace, '.git'), { recursive: true });
    await writeFile(join(kit.workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(code(await kit.call(readFileTool, { path: '.git/HEAD' }))).toBe('ok');
    expect(code(await kit.call(writeFileTool, { path: '.git/HEAD', content: 'x' }))).toBe('permission_denied');
    expect(code(await kit.call(writeFileTool, { path: 'vendor/lib/.git/config', content: 'x' }))).toBe(
      'permission_denied',
    );
  });

  it("never reaches Familiar's own data, even when the workspace contains the home", async () => {
    const wide = await createToolKit(tempDir);
    try {
      // Open the folder that holds the Familiar home as the workspace.
      const env = await createToolEnvironment({ services: wide.services, workspaceRoot: join(wide.home, '..') });
      const ctx = { conversationId: 'c', signal: new AbortController().signal, env };
      await writeFile(join(wide.home, 'secrets.json'), '{"key":"sk-123"}');
      await writeFile(join(wide.personaDir, 'MEMORY.md'), 'private');
      const secrets = await wide.runner.run(readFileTool, { path: 'home/secrets.json' }, ctx);
      expect(code(secrets)).toBe('permission_denied');
      const memory = await wide.runner.run(readFileTool, { path: 'home/workspace/MEMORY.md' }, ctx);
      expect(code(memory)).toBe('permission_denied');
      const canonical = asTextRead(await wide.runner.run(readFileTool, { path: 'MEMORY.md' }, ctx));
      expect(canonical.ok && canonical.value.content).toBe('private');
    } finally {
      await wide.dispose();
    }
  });

  it('resolves no generated path to a real location outside the workspace (property)', async () => {
    // A small maze: a normal folder, links inside, links out, a dangling link, a loop.
    await mkdir(join(kit.workspace, 'dir', 'deep'), { recursive: true });
    await writeFile(join(kit.workspace, 'dir', 'deep', 'f.txt'), 'x');
    await symlink(outside, join(kit.workspace, 'dir', 'out'));
    await symlink('deep', join(kit.workspace, 'dir', 'in'));
    await symlink('../..', join(kit.workspace, 'dir', 'deep', 'up'));
    await symlink('/nonexistent/target', join(kit.workspace, 'dangling'));
    const root = await realpath(kit.workspace);
    const segment = fc.constantFrom(
      'dir',
      'deep',
      'out',
      'in',
      'up',
      'dangling',
      'f.txt',
      '..',
      '.',
      'new',
      'secret.txt',
      '',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.constantFrom<'read' | 'write'>('read', 'write'),
        fc.boolean(),
        async (segments, access, followFinal) => {
          const resolved = await kit.env.sandbox.resolve(segments.join('/'), access, { followFinal });
          if (resolved.ok) expect(isInside(root, join(root, resolved.value.realRel))).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
