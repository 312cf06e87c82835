import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectRefusedWith, lintProbe, repoRoot, sourceFiles } from './test-support/lint-probe';

/**
 * One way to start a process: only main/platform/processes/ imports child_process, so every child
 * Familiar starts gets the allow-listed environment, the process-group kill and the operating
 * system's confinement. Lint holds the line (eslint.config.js); the probes prove it fires, the scan
 * that the tree obeys.
 */
describe('lint keeps child_process inside main/platform/processes/, and spawn in spawn-launch.ts', () => {
  const forbidden: [string, string][] = [
    ['main/tools/probe.ts', "import { spawn } from 'node:child_process';"],
    ['main/domain/lsp/probe.ts', "import { execFile } from 'child_process';"],
    ['main/platform/search-engines/probe.ts', "import { spawn } from 'node:child_process';"],
    [
      'main/platform/disk/probe.ts',
      "import type { ChildProcess } from 'node:child_process';\nexport type C = ChildProcess;",
    ],
    ['main/front-doors/electron/probe.ts', "import { fork } from 'node:child_process';"],
    ['main/agent/probe.ts', "export const load = () => import('node:child_process');"],
  ];

  it.each(forbidden)('%s: %s', async (file, code) => {
    await expectRefusedWith(file, code, /main\/platform\/processes\//);
  });

  it('inside main/platform/processes/, refuses every spawn but spawn-launch.ts and the confinement probe', async () => {
    for (const code of [
      "import { spawn } from 'node:child_process';",
      "import { execFileSync } from 'child_process';",
      "import type { ChildProcess } from 'node:child_process';\nexport type C = ChildProcess;",
      "export const load = () => import('node:child_process');",
      "import { createRequire } from 'node:module';\nexport const c = createRequire(import.meta.url)('node:child_process');",
      "const name = 'node:child_process';\nexport const c = process.getBuiltinModule(name);",
      'export const load = () => import(`node:child_process`);',
    ]) {
      await expectRefusedWith('main/platform/processes/probe.ts', code, /only spawn-launch\.ts spawns/);
    }
  });

  it('lets spawn-launch.ts, the confinement probe and the tests start processes', async () => {
    for (const file of [
      'main/platform/processes/spawn-launch.ts',
      'main/platform/processes/confinement.ts',
      'main/platform/processes/probe.test.ts',
      'main/tools/probe.test.ts',
      'main/tools/probe.child.ts',
    ]) {
      const messages = await lintProbe(
        file,
        "import { spawn } from 'node:child_process';\nexport const probe = spawn;\n",
      );
      expect(
        messages.filter((message) => /child_process/.test(message.message)),
        file,
      ).toEqual([]);
    }
  });
});

const testOnly = (rel: string) =>
  /\.test\.tsx?$/.test(rel) || /\.child\.ts$/.test(rel) || rel.startsWith(`main${sep}test-support${sep}`);
const processAccess = /(from\s+|import\s+|require\(\s*|import\(\s*)['"`](node:)?child_process['"`]/;

describe('the tree keeps one way to start a process (a scan, independent of the lint config)', () => {
  it('no product file outside main/platform/processes/ imports child_process', async () => {
    const offenders: string[] = [];
    for (const layer of ['main', 'shared', 'preload', 'renderer']) {
      for await (const file of sourceFiles(join(repoRoot, layer))) {
        const rel = relative(repoRoot, file);
        if (testOnly(rel) || rel.startsWith(`main${sep}platform${sep}processes${sep}`)) continue;
        if (processAccess.test(await readFile(file, 'utf8'))) offenders.push(rel);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('inside main/platform/processes/, only spawn-launch.ts and the confinement probe take more than types from child_process', async () => {
    const spawners: string[] = [];
    for await (const file of sourceFiles(join(repoRoot, 'main', 'platform', 'processes'))) {
      const rel = relative(repoRoot, file);
      if (testOnly(rel)) continue;
      // Types only (`import type`, `export type ... from`) start nothing; comments say nothing.
      const text = (await readFile(file, 'utf8'))
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .replace(/^\s*(import|export) type\b[^;]*;/gm, '');
      if (processAccess.test(text) || /getBuiltinModule\(|child_process['"`]\s*\)/.test(text)) {
        spawners.push(rel.split(sep).join('/'));
      }
    }
    expect(spawners.sort()).toEqual([
      'main/platform/processes/confinement.ts',
      'main/platform/processes/spawn-launch.ts',
    ]);
  });

  it('the scan knows the spellings', () => {
    for (const code of ["import { spawn } from 'node:child_process';", "const c = await import('child_process');"]) {
      expect(processAccess.test(code), code).toBe(true);
    }
    expect(processAccess.test("import { runProcess } from '../processes/process-runner';")).toBe(false);
  });
});
