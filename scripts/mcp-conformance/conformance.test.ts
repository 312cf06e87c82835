import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript, importOf } from '../../main/test-support/child-script';

/**
 * The official MCP conformance suite's client scenarios (issue 29, item 7), each against its own
 * server on loopback, with Familiar's host connection as the client under test (client.ts, bundled
 * from source once). Every scenario runs and its outcome is printed. The list below is exactly the
 * ones Familiar passes: each must keep passing (a regression fails the run), and one that starts
 * passing fails the run too until it is listed, so the list stays the truth.
 *
 * Not listed, and why: auth/basic-cimd (its checks pass, but the suite warns, and so fails,
 * because Familiar registers dynamically instead of using a client ID metadata document: that
 * needs the document published at an https URL of Familiar's own); auth/pre-registration (Familiar
 * has no place yet to enter a client ID and secret registered by hand); auth/client-credentials-jwt,
 * auth/client-credentials-basic and auth/cross-app-access-complete-flow (extensions for clients
 * acting as themselves, without a user; Familiar signs in as its user, in the browser).
 */
const passing = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
];

const cli = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

interface Outcome {
  readonly scenario: string;
  readonly passed: boolean;
  readonly summary: string;
  readonly ms: number;
}

const run = (args: string[], cwd: string, timeoutMs: number) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });

let client = '';
let results = '';
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  client = await bundleChildScript(importOf(join(import.meta.dirname, 'client.ts')));
  results = await mkdtemp(join(tmpdir(), 'familiar-conformance-'));
  const listed = await run(['list', '--client'], results, 20_000);
  const scenarios = [...listed.output.matchAll(/^\s+- (\S+) \[/gm)].map((match) => match[1]!);
  // Two at a time: 2 shared cores, and each scenario is a CLI, a server and a client process.
  const queue = [...scenarios];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const began = Date.now();
      const { code, output } = await run(
        [
          'client',
          '--command',
          `"${process.execPath}" "${client}"`,
          '--scenario',
          scenario,
          '--timeout',
          '10000',
          '-o',
          join(results, scenario),
        ],
        results,
        30_000,
      );
      const summary = /Passed: .*/.exec(output)?.[0] ?? output.trim().split('\n').slice(-3).join(' | ');
      outcomes.set(scenario, { scenario, passed: code === 0, summary, ms: Date.now() - began });
    }
  };
  await Promise.all([worker(), worker()]);
  const table = [...outcomes.values()].map(
    (o) => `${o.passed ? 'pass' : 'FAIL'}  ${o.scenario.padEnd(45)} ${String(o.ms).padStart(6)} ms  ${o.summary}`,
  );
  process.stdout.write(`MCP conformance, client scenarios (Familiar's host connection):\n${table.join('\n')}\n`);
}, 120_000);

afterAll(async () => {
  if (results !== '') await rm(results, { recursive: true, force: true });
});

describe('the MCP conformance suite against Familiar as a client', () => {
  it('runs every client scenario the suite lists', () => {
    expect(outcomes.size).toBeGreaterThanOrEqual(20);
    for (const scenario of passing) expect(outcomes.has(scenario), scenario).toBe(true);
  });

  it('passes no scenario the list does not name (a new pass belongs in the list)', () => {
    const unlisted = [...outcomes.values()].filter((o) => o.passed && !passing.includes(o.scenario));
    expect(unlisted.map((o) => o.scenario)).toEqual([]);
  });

  it.each(passing)('passes %s', (scenario) => {
    const outcome = outcomes.get(scenario);
    expect(outcome, scenario).toBeDefined();
    expect(outcome!.passed, `${scenario}: ${outcome!.summary}`).toBe(true);
  });
});
