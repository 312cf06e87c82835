import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectRefusedWith, lintProbe, repoRoot, sourceFiles } from './test-support/lint-probe';

/**
 * One way to disk (issue 15): only main/platform/disk/ (workspace bytes) and main/platform/storage/ (Familiar's
 * own data), and the platform modules built on the disk's anchored lookups (search-engines, watching,
 * recovery, processes: eslint.config.js says why each), may reach the file system. Lint holds the line (eslint.config.js); the probes below
 * prove each rule fires, and the scan proves the tree obeys even where a lint override could hide it.
 */
const probe = (code: string) => `${code}\nexport const probe = 1;\n`;

describe('lint keeps the file system inside main/platform/disk/ and main/platform/storage/', () => {
  const forbidden: [string, string][] = [
    ['main/tools/probe.ts', "import { readFile } from 'node:fs/promises';"],
    ['main/core/probe.ts', "import { readFileSync } from 'fs';"],
    ['main/domain/search/probe.ts', "import * as fs from 'fs/promises';\nvoid fs;"],
    ['main/domain/conversations/probe.ts', "import type { Stats } from 'node:fs';\nexport type S = Stats;"],
    ['main/agent/probe.ts', "export { readFile } from 'node:fs/promises';"],
    ['main/agent/probe.ts', "import { createRequire } from 'node:module';\nvoid createRequire;"],
    ['main/front-doors/electron/probe.ts', "import { readFileSync } from 'node:fs';"],
    ['main/sandboxed/probe.ts', "import { open } from 'node:fs/promises';"],
    ['main/platform/logging/probe.ts', "import { open } from 'node:fs/promises';"],
    ['shared/probe.ts', "import { readFile } from 'node:fs/promises';"],
    ['preload/probe.ts', "import { readFileSync } from 'node:fs';"],
    ['renderer/probe.ts', "import { readFileSync } from 'fs';"],
    // What import statements do not show.
    ['main/agent/probe.ts', "const fs = require('node:fs');\nvoid fs;"],
    ['main/agent/probe.ts', "export const load = () => import('node:fs/promises');"],
    ['main/front-doors/electron/probe.ts', "export const load = () => import('fs');"],
    ['main/agent/probe.ts', "export const fs = process.getBuiltinModule('fs');"],
    ['renderer/probe.ts', "export const load = () => import('fs/promises');"],
  ];

  it.each(forbidden)('%s: %s', async (file, code) => {
    // The message says where to go instead.
    await expectRefusedWith(file, code, /main\/platform\/disk\/.*main\/platform\/storage\//);
  });

  it('refuses an import() whose module name lint cannot read', async () => {
    const messages = await lintProbe(
      'main/agent/probe.ts',
      probe('export const load = (name: string) => import(name);'),
    );
    expect(messages.map((message) => message.ruleId)).toContain('no-restricted-syntax');
  });

  it('lets the two disk owners, tests and the files only tests run use the file system', async () => {
    const allowed = [
      'main/platform/disk/probe.ts',
      'main/platform/disk/deeper/probe.ts',
      'main/platform/search-engines/probe.ts',
      'main/platform/watching/probe.ts',
      'main/platform/recovery/probe.ts',
      'main/platform/processes/probe.ts',
      'main/platform/storage/probe.ts',
      'main/tools/probe.test.ts',
      'main/front-doors/electron/probe.test.ts',
      'main/test-support/probe.ts',
      'main/tools/probe.child.ts',
      'e2e/fixtures/probe.ts',
      'bench/probe.ts',
      'scripts/probe.ts',
    ];
    for (const file of allowed) {
      const code = "import { readFile } from 'node:fs/promises';\nexport const probe = readFile;\n";
      const messages = await lintProbe(file, code);
      expect(
        messages.filter((message) => message.message.includes('main/platform/storage/')),
        file,
      ).toEqual([]);
    }
  });

  it('still keeps Electron out of the disk owners', async () => {
    const messages = await lintProbe(
      'main/platform/storage/probe.ts',
      probe("import { app } from 'electron';\nvoid app;"),
    );
    expect(messages.map((message) => message.ruleId)).toContain('no-restricted-imports');
  });
});

/** Files only tests run (the lint config exempts the same ones): they build fixtures. */
const testOnly = (rel: string) =>
  /\.test\.tsx?$/.test(rel) || /\.child\.ts$/.test(rel) || rel.startsWith(`main${sep}test-support${sep}`);
const diskOwner = (rel: string) =>
  ['disk', 'storage', 'search-engines', 'watching', 'recovery', 'processes'].some((folder) =>
    rel.startsWith(`main${sep}platform${sep}${folder}${sep}`),
  );

/** Any way of loading the file system a source file could spell (static, re-export, require, import(), builtins). */
const fsAccess =
  /(from\s+|import\s+|require\(\s*|import\(\s*)['"`](node:)?fs(\/promises)?['"`]|getBuiltinModule\(|createRequire\b/;
const testOnlyImport = /from\s+'[^']*(\/test-support\/|\.child')/;

/** Each way of reaching fs the lint rule forbids, spelled as a file would. */
const spellings = [
  "import { readFile } from 'node:fs/promises';",
  "import fs from 'fs';",
  "import 'node:fs';",
  "export * from 'fs/promises';",
  "const fs = require('node:fs');",
  'const fs = require(`fs`);',
  "const fs = await import('node:fs/promises');",
  "process.getBuiltinModule('fs');",
  "import { createRequire } from 'node:module';",
];

/** Product files (shipped code) that reach the file system outside the two owners. */
async function fsOffenders(layers: readonly string[] = ['main', 'shared', 'preload', 'renderer']) {
  const offenders: string[] = [];
  for (const layer of layers) {
    for await (const file of sourceFiles(join(repoRoot, layer))) {
      const rel = relative(repoRoot, file);
      if (testOnly(rel) || diskOwner(rel)) continue;
      const text = await readFile(file, 'utf8');
      // A shipped file importing a test helper would carry that helper's fs access with it.
      if (fsAccess.test(text) || testOnlyImport.test(text)) offenders.push(rel);
    }
  }
  return offenders;
}

describe('the tree keeps one way to disk (a scan, independent of the lint config)', () => {
  it('no product file outside the disk owners reaches the file system', async () => {
    expect(await fsOffenders()).toEqual([]);
  });

  it('the scan knows every spelling the lint rule forbids', () => {
    for (const code of spellings) expect(fsAccess.test(code), code).toBe(true);
    expect(fsAccess.test("import { readFile } from '../storage/fs-helpers';")).toBe(false);
    expect(fsAccess.test("import { join } from 'node:path';")).toBe(false);
  });
});
