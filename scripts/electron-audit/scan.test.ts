import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../main/test-support/temp-dir';
import { judgeFindings } from './findings';
import { isShippedSource, scanWithElectronegativity } from './scan';

const root = join(import.meta.dirname, '..', '..');

describe('scanWithElectronegativity', () => {
  const tempDir = useTempDirs();

  it('finds an unhardened window in real code, and the gate refuses it', { timeout: 60_000 }, async () => {
    const project = await tempDir('familiar-audit-fixture-');
    await mkdir(join(project, 'main'), { recursive: true });
    await writeFile(
      join(project, 'main', 'window.ts'),
      [
        "import { BrowserWindow } from 'electron';",
        'export const open = () =>',
        '  new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(project, 'main', 'window.test.ts'),
      'new BrowserWindow({ webPreferences: { nodeIntegration: true } });\n',
    );
    await writeFile(join(project, 'package.json'), '{"name":"fixture","devDependencies":{"electron":"45.4.1"}}\n');
    await mkdir(join(project, 'node_modules', 'electron'), { recursive: true });
    await writeFile(join(project, 'node_modules', 'electron', 'package.json'), '{"version":"45.4.1"}\n');

    const before = new Set(await readdir(tmpdir()));
    const scan = await scanWithElectronegativity(project, ['main']);
    const checks = scan.findings.map((found) => `${found.severity} ${found.check}`);
    // The window's own options, and the app-wide guards this fixture lacks (Familiar has both).
    expect(checks).toEqual(
      expect.arrayContaining([
        'HIGH CONTEXT_ISOLATION_JS_CHECK',
        'MEDIUM SANDBOX_JS_CHECK',
        'HIGH LIMIT_NAVIGATION_GLOBAL_CHECK',
        'MEDIUM PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
      ]),
    );
    // Tests are not shipped, so they are not scanned.
    expect(scan.findings.filter((found) => found.file.includes('.test.'))).toEqual([]);
    expect(scan.findings.filter((found) => found.file === 'main/window.ts').length).toBeGreaterThan(0);
    expect(judgeFindings(scan.findings, []).passed).toBe(false);
    // Its working copy is gone again.
    const left = (await readdir(tmpdir())).filter(
      (name) => !before.has(name) && name.startsWith('familiar-electronegativity-'),
    );
    expect(left).toEqual([]);
  });
});

describe('isShippedSource', () => {
  it('leaves out tests and test helpers', () => {
    expect(isShippedSource(join(root, 'main', 'electron', 'window.ts'))).toBe(true);
    expect(isShippedSource(join(root, 'main', 'electron', 'window.test.ts'))).toBe(false);
    expect(isShippedSource(join(root, 'renderer', 'app', 'App.test.tsx'))).toBe(false);
    expect(isShippedSource(join(root, 'renderer', 'test-setup.ts'))).toBe(false);
    expect(isShippedSource(join(root, 'main', 'test-support', 'temp-dir.ts'))).toBe(false);
  });
});
