import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { ForegroundGate } from '../../platform/search-engines/foreground-gate';
import { createCodeAvailability } from './code-availability';
import type { ServerDefinition } from './server-catalog';

/** A server for .ts files that is "installed" (its program is never started here). */
const typescript: ServerDefinition = {
  id: 'ts',
  extensions: ['.ts'],
  languageId: () => 'typescript',
  resolve: () => ({ command: '/bin/true', args: [] }) as never,
  installHint: '',
};

/** Thousands of folders before the one code file: a walk of many slices (made once: a second or two). */
let workspace: string;
beforeAll(async () => {
  const dir = (workspace = await mkdtemp(join(tmpdir(), 'code-availability-')));
  for (let i = 0; i < 1000; i += 1) {
    // Synchronous: 6,000 awaited calls cost seconds here.
    mkdirSync(join(dir, `d${String(i).padStart(4, '0')}`));
    writeFileSync(join(dir, `d${String(i).padStart(4, '0')}`, 'notes.txt'), 'text\n');
  }
  await mkdir(join(dir, 'zz'));
  await writeFile(join(dir, 'zz', 'main.ts'), 'export {};\n');
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

function availability(dir: string, gate: ForegroundGate) {
  const sandbox = createWorkspaceSandbox({
    workspaceRoot: dir,
    personaDir: dir,
    roots: createAnchorRoots(),
    isConcealed: () => false,
  });
  return createCodeAvailability({
    servers: () => [typescript],
    sandbox: () => Promise.resolve(sandbox),
    idle: (hurry) => gate.idle(hurry),
  });
}

const settledSoon = async (promise: Promise<unknown>, ms = 5000): Promise<boolean> =>
  Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

describe('code availability', () => {
  it('checks in the background: its walk waits while a tool call runs, and answers once it ends', async () => {
    const gate = new ForegroundGate();
    const code = availability(workspace, gate);
    const leave = gate.enter(); // a call runs
    const checking = code.refresh({ background: true });
    expect(await settledSoon(checking, 300)).toBe(false);
    expect(gate.waiting).toBe(1);
    expect(code.current()).toBe(false);
    leave();
    expect(await checking).toBe(true);
    expect(code.current()).toBe(true);
  });

  it('hurries a background check someone waits for (a tool list during a call)', async () => {
    const gate = new ForegroundGate();
    const code = availability(workspace, gate);
    const leave = gate.enter();
    try {
      const background = code.refresh({ background: true });
      expect(await settledSoon(background, 300)).toBe(false);
      // The list's refresh: answered while the call still runs.
      expect(await settledSoon(code.refresh())).toBe(true);
      expect(await background).toBe(true);
    } finally {
      leave();
    }
  });

  it('does not wait for calls when asked in the foreground', async () => {
    const gate = new ForegroundGate();
    const code = availability(workspace, gate);
    const leave = gate.enter();
    try {
      expect(await settledSoon(code.refresh())).toBe(true);
    } finally {
      leave();
    }
  });
});
