import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowListEntrySchema, describeVerdict, judgeFindings, loadAllowList } from './findings';
import type { AllowListEntry, Finding } from './findings';

const finding = (overrides: Partial<Finding>): Finding => ({
  check: 'OPEN_EXTERNAL_JS_CHECK',
  severity: 'MEDIUM',
  confidence: 'TENTATIVE',
  file: 'main/front-doors/electron/start-desktop.ts',
  line: 36,
  code: 'guardWebContents(contents, page, (url) => void shell.openExternal(url)),',
  description: 'Review the use of openExternal',
  ...overrides,
});
const entry: AllowListEntry = {
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'main/front-doors/electron/start-desktop.ts',
  code: 'shell.openExternal(url)',
  justification: 'Only https URLs checked by isSafeExternalUrl reach it.',
};

describe('judgeFindings', () => {
  it('fails on a HIGH or MEDIUM finding nobody justified', () => {
    const high = finding({ check: 'NODE_INTEGRATION_JS_CHECK', severity: 'HIGH', code: 'nodeIntegration: true' });
    const verdict = judgeFindings([high, finding({})], []);
    expect(verdict.passed).toBe(false);
    expect(verdict.unjustified).toEqual([high, finding({})]);
  });

  it('passes a finding the allow-list justifies, wherever its line moved', () => {
    const verdict = judgeFindings([finding({ line: 120 })], [entry]);
    expect(verdict).toMatchObject({ passed: true, unjustified: [], stale: [] });
    expect(verdict.justified).toEqual([{ finding: finding({ line: 120 }), entry }]);
  });

  it('does not gate LOW and INFORMATIONAL findings, but reports them', () => {
    const low = finding({ check: 'CSP_GLOBAL_CHECK', severity: 'LOW', file: 'renderer/index.html' });
    const info = finding({ check: 'ELECTRON_VERSION_JSON_CHECK', severity: 'INFORMATIONAL', file: 'package.json' });
    const verdict = judgeFindings([low, info], []);
    expect(verdict).toMatchObject({ passed: true, ungated: [low, info] });
  });

  it('lets one entry justify one finding only: a second identical call needs its own review', () => {
    const verdict = judgeFindings([finding({ line: 36 }), finding({ line: 90 })], [entry]);
    expect(verdict.passed).toBe(false);
    expect(verdict.unjustified).toEqual([finding({ line: 90 })]);
  });

  it('matches on check, file and code together', () => {
    for (const other of [
      finding({ check: 'PRELOAD_JS_CHECK' }),
      finding({ file: 'main/front-doors/electron/menu.ts' }),
      finding({ code: 'shell.openExternal(link)' }),
    ]) {
      expect(judgeFindings([other], [entry]).passed).toBe(false);
    }
  });

  it('fails on a stale entry that matches nothing, so the list stays reviewed', () => {
    const verdict = judgeFindings([], [entry]);
    expect(verdict).toMatchObject({ passed: false, stale: [entry] });
    expect(describeVerdict(verdict, 10).join('\n')).toContain('STALE');
  });

  it('fails when a file could not be parsed, because it was never checked', () => {
    const verdict = judgeFindings(
      [],
      [],
      [{ file: 'main/front-doors/electron/window.ts', message: 'Unexpected token' }],
    );
    expect(verdict.passed).toBe(false);
    expect(describeVerdict(verdict, 10).join('\n')).toContain('UNSCANNED main/front-doors/electron/window.ts');
  });
});

describe('the allow-list', () => {
  it('requires a one-line justification of some substance for every entry', () => {
    expect(allowListEntrySchema.safeParse({ ...entry, justification: 'ok' }).success).toBe(false);
    expect(allowListEntrySchema.safeParse({ ...entry, justification: `${entry.justification}\nmore` }).success).toBe(
      false,
    );
    expect(allowListEntrySchema.safeParse({ ...entry, reason: 'typo' }).success).toBe(false);
    expect(allowListEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('as committed, is well formed', async () => {
    const entries = await loadAllowList(join(import.meta.dirname, '..', '..', 'electronegativity-allowlist.json'));
    expect(entries.length).toBeGreaterThan(0);
  });
});
