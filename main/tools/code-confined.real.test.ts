import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { codeDiagnosticsTool } from './code-diagnostics';

/**
 * Issue 28 item 3: the language servers run confined (process-rules.ts, 'language-server'): they
 * read the workspace and the app's own install, nothing of the user's home or other folders, write
 * only a scratch home of their own, and have no network. The real typescript-language-server on a
 * project whose file imports a module outside the workspace by its absolute path.
 */
const mode = confinementMode();
const skipped = mode.confined ? '' : ` (skipped: ${mode.reason} ${mode.fix})`;

let root: string;
let outside: string;
let kit: ToolKit;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'familiar-lsp-confined-'));
  outside = await mkdtemp(join(tmpdir(), 'familiar-lsp-outside-'));
  await writeFile(join(outside, 'secret.ts'), 'export const secret: number = 1;\n');
  kit = await createToolKit(() => Promise.resolve(root), {
    lsp: { timings: { backoffMs: 50, maxBackoffMs: 200, requestMs: 15_000 } },
  });
  await mkdir(join(kit.workspace, 'src'));
  await writeFile(
    join(kit.workspace, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext' }, include: ['src'] }),
  );
  await writeFile(join(kit.workspace, 'src/inside.ts'), 'export const inside: number = 1;\n');
  await writeFile(
    join(kit.workspace, 'src/main.ts'),
    `import { inside } from './inside';\nimport { secret } from '${join(outside, 'secret')}';\nexport const sum: number = inside + secret;\n`,
  );
});

afterAll(async () => {
  await kit.dispose();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** `pid` and every process below it, each with its command line and mount namespace. */
function processTree(pid: number): { pid: number; command: string; mountNs: string }[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: { pid: number; command: string; mountNs: string }[] = [];
  const visit = (at: number) => {
    try {
      const command = readFileSync(`/proc/${at}/cmdline`, 'utf8').replaceAll('\0', ' ');
      tree.push({ pid: at, command, mountNs: readlinkSync(`/proc/${at}/ns/mnt`) });
    } catch {
      return;
    }
    for (const child of parents.get(at) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

describe.runIf(process.platform === 'linux')(`language servers run confined${skipped}`, { timeout: 60_000 }, () => {
  it.runIf(mode.confined)('see the workspace but no folder outside it', async () => {
    const checked = await kit.call(codeDiagnosticsTool, { path: 'src/main.ts' });
    if (!checked.ok) throw new Error(`${checked.error.code}: ${checked.error.message}`);
    // Unconfined the server resolves the outside module and finds nothing wrong.
    expect(checked.value.diagnostics).toEqual([expect.objectContaining({ line: 2, code: 2307 })]);
  });

  it.runIf(mode.confined)('run in a mount namespace of their own', async () => {
    const checked = await kit.call(codeDiagnosticsTool, { path: 'src/inside.ts' });
    expect(checked.ok).toBe(true);
    const pid = kit.services.code.lsp.client('typescript')?.pid;
    expect(pid).toBeTypeOf('number');
    const ours = readlinkSync('/proc/self/ns/mnt');
    // The servers themselves, not bwrap outside the sandbox (its command line names them too).
    const servers = processTree(pid!).filter(
      ({ command }) =>
        /typescript-language-server|tsserver/.test(command) && command.split(' ')[0] !== (mode.confined && mode.path),
    );
    expect(servers.some(({ command }) => command.includes('tsserver'))).toBe(true);
    for (const server of servers) expect(server.mountNs, server.command).not.toBe(ours);
  });
});
