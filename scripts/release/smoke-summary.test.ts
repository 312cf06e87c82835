import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SmokeSummary } from '../../main/front-doors/smoke/run-smoke-test';
import { useTempDirs } from '../../main/test-support/temp-dir';
import { projectRoot } from '../packaging/builder-config';
import { judgeSmokeRun, readSmokeSummary } from './smoke-summary';

const tempDir = useTempDirs();

const passing: SmokeSummary = {
  ok: true,
  durationMs: 4200,
  facts: { mode: 'desktop', signed: false },
  checks: [{ name: 'csp', ok: true, detail: 'inline script blocked (script-src-elem)' }],
};
const exited = (code: number | null) => ({ code, signal: null, timedOut: false });

describe('reading a smoke test run', () => {
  it('finds the summary among the other lines Electron prints', () => {
    const stdout = `Fontconfig warning: no <cachedir>\n${JSON.stringify(passing)}\r\n[1234:ERROR:gpu_init.cc] nope\n`;
    expect(readSmokeSummary(stdout)).toEqual(passing);
    expect(readSmokeSummary('{"not":"a summary"}\n{broken\n')).toBeUndefined();
  });

  it('passes only an app that exited 0 with a passing summary', () => {
    expect(judgeSmokeRun(exited(0), passing).passed).toBe(true);
    expect(judgeSmokeRun(exited(1), passing).passed).toBe(false);
    expect(judgeSmokeRun(exited(0), { ...passing, ok: false }).passed).toBe(false);
    expect(judgeSmokeRun(exited(0), undefined)).toMatchObject({
      passed: false,
      lines: ['The app printed no smoke test summary.', 'exit code 0'],
    });
    expect(judgeSmokeRun({ code: null, signal: 'SIGKILL', timedOut: true }, passing).passed).toBe(false);
  });

  it('lists every check for the workflow log', () => {
    expect(judgeSmokeRun(exited(0), passing).lines).toEqual([
      'facts: {"mode":"desktop","signed":false}, 4200 ms',
      'ok   csp: inline script blocked (script-src-elem)',
      'exit code 0',
    ]);
  });
});

describe('smoke-packaged.ts', () => {
  /** Runs the CLI against a stand-in app: a Node script that answers --smoke-test as told. */
  async function runAgainst(appSource: string, timeoutMs = 20_000) {
    const app = join(await tempDir('familiar-smoke-cli-'), 'app.mjs');
    await writeFile(app, appSource);
    const jiti = join(projectRoot, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs');
    return spawnSync(process.execPath, [jiti, join(import.meta.dirname, 'smoke-packaged.ts'), process.execPath, app], {
      encoding: 'utf8',
      env: { ...process.env, FAMILIAR_SMOKE_TIMEOUT_MS: String(timeoutMs) },
    });
  }

  it('starts the app with --smoke-test and passes it on a passing summary', async () => {
    const result = await runAgainst(
      `if (!process.argv.includes('--smoke-test')) process.exit(3);\nconsole.log(${JSON.stringify(JSON.stringify(passing))});\n`,
    );
    expect(result.stdout).toContain('ok   csp');
    expect(result.status).toBe(0);
  });

  it('fails an app that never exits, once the time is up', async () => {
    const result = await runAgainst('setInterval(() => undefined, 1000);\n', 1500);
    expect(result.stdout).toContain('did not exit in time');
    expect(result.status).toBe(1);
  });
});
