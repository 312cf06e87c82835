import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintProbe, repoRoot as root, sourceFiles } from './test-support/lint-probe';

const ruleIdsFor = async (filePath: string, code: string): Promise<string[]> =>
  (await lintProbe(filePath, code)).map((message) => message.ruleId);

describe('layer boundaries are enforced by lint', () => {
  const forbidden: [string, string, string][] = [
    ['renderer/probe.ts', "import { createCore } from '../main/core/create-core';", 'boundaries/dependencies'],
    ['renderer/probe.ts', "import { contextBridge } from 'electron';", 'no-restricted-imports'],
    ['renderer/probe.ts', "import { readFile } from 'node:fs/promises';", 'no-restricted-imports'],
    ['renderer/probe.ts', "import { readFileSync } from 'fs';", 'no-restricted-imports'],
    ['renderer/features/probe.ts', "void window.familiar?.invoke('app.info', {});", 'no-restricted-syntax'],
    ['main/probe.ts', "import { App } from '../renderer/app/App';", 'boundaries/dependencies'],
    ['main/core/probe.ts', "import { app } from 'electron';", 'no-restricted-imports'],
    ['shared/probe.ts', "import { createCore } from '../main/core/create-core';", 'boundaries/dependencies'],
    ['shared/probe.ts', "import { App } from '../renderer/app/App';", 'boundaries/dependencies'],
    ['shared/probe.ts', "import { join } from 'node:path';", 'no-restricted-imports'],
    ['shared/probe.ts', "import { ipcMain } from 'electron';", 'no-restricted-imports'],
    ['preload/probe.ts', "import { createCore } from '../main/core/create-core';", 'boundaries/dependencies'],
    // The scripted LLM server is for tests: shipped main code may not import it, nor tests elsewhere.
    [
      'main/agent/probe.ts',
      "import { reply } from '../../e2e/fixtures/scripted-llm-server';",
      'boundaries/dependencies',
    ],
    [
      'renderer/probe.test.ts',
      "import { reply } from '../e2e/fixtures/scripted-llm-server';",
      'boundaries/dependencies',
    ],
    // ...and tests may import only that fixture, not the rest of e2e/.
    ['main/agent/probe.test.ts', "import { test } from '../../e2e/fixtures/familiar-app';", 'boundaries/dependencies'],
    // e2e may run the app's smoke test (and know the checks it expects), and nothing else of main/.
    ['e2e/probe.spec.ts', "import { createCore } from '../main/core/create-core';", 'boundaries/dependencies'],
    ['e2e/probe.spec.ts', "import { useTempDirs } from '../main/test-support/temp-dir';", 'boundaries/dependencies'],
    // Inside main/, from the front doors down to the platform (ARCHITECTURE.md): never upward.
    [
      'main/platform/sandbox/probe.ts',
      "import { defineTool } from '../../tools/define-tool';",
      'boundaries/dependencies',
    ],
    [
      'main/platform/storage/probe.ts',
      "import { createCore } from '../../core/create-core';",
      'boundaries/dependencies',
    ],
    [
      'main/domain/policy/probe.ts',
      "import { createToolCalls } from '../../tool-calls/tool-calls';",
      'boundaries/dependencies',
    ],
    ['main/tools/probe.ts', "import { createToolCalls } from '../tool-calls/tool-calls';", 'boundaries/dependencies'],
    ['main/tool-calls/probe.ts', "import { runTurn } from '../agent/run-turn';", 'boundaries/dependencies'],
    ['main/agent/probe.ts', "import { createCore } from '../core/create-core';", 'boundaries/dependencies'],
    [
      'main/core/probe.ts',
      "import { createMcpServer } from '../front-doors/mcp/mcp-server';",
      'boundaries/dependencies',
    ],
    // Shipped code never leans on the tests' helpers; a new folder must be given a layer first.
    ['main/tools/probe.ts', "import { createToolKit } from '../test-support/tool-kit';", 'boundaries/dependencies'],
    [
      'main/new-folder/probe.ts',
      "import { familiarPaths } from '../platform/storage/paths';",
      'boundaries/dependencies',
    ],
    // A folder named like a layer deep inside another layer must not borrow that layer's rights.
    [
      'renderer/features/main/probe.ts',
      "import { createCore } from '../../../main/core/create-core';",
      'boundaries/dependencies',
    ],
  ];

  it.each(forbidden)('%s: %s', async (file, code, rule) => {
    expect(await ruleIdsFor(file, `${code}\nexport const probe = 1;\n`)).toContain(rule);
  });

  it('allows what the layering permits', async () => {
    const allowed: [string, string][] = [
      ['main/front-doors/electron/probe.ts', "import { app } from 'electron';\nexport const probe = app;"],
      ['preload/probe.ts', "import { contextBridge } from 'electron';\nexport const probe = contextBridge;"],
      ['renderer/ipc/probe.ts', 'export const probe = window.familiar;'],
      ['main/probe.ts', "import { calls } from '../shared/ipc/contract';\nexport const probe = calls;"],
      ['renderer/probe.ts', "import { calls } from '../shared/ipc/contract';\nexport const probe = calls;"],
      ['renderer/features/main/probe.ts', "import { App } from '../../app/App';\nexport const probe = App;"],
      [
        'main/tool-calls/probe.ts',
        "import { defineTool } from '../tools/define-tool';\nexport const probe = defineTool;",
      ],
      [
        'main/tools/probe.ts',
        "import { familiarPaths } from '../platform/storage/paths';\nexport const probe = familiarPaths;",
      ],
      [
        'main/front-doors/electron/probe.ts',
        "import { createCore } from '../../core/create-core';\nexport const probe = createCore;",
      ],
      ['main/probe.ts', "import { createCore } from './core/create-core';\nexport const probe = createCore;"],
      [
        'main/tools/probe.test.ts',
        "import { createToolKit } from '../test-support/tool-kit';\nexport const probe = createToolKit;",
      ],
      [
        'main/agent/probe.test.ts',
        "import { reply } from '../../e2e/fixtures/scripted-llm-server';\nexport const probe = reply;",
      ],
      ['bench/probe.ts', "import { reply } from '../e2e/fixtures/scripted-llm-server';\nexport const probe = reply;"],
      [
        'e2e/probe.spec.ts',
        "import { runSmokeTest } from '../main/front-doors/smoke/run-smoke-test';\nexport const probe = runSmokeTest;",
      ],
      [
        'e2e/probe.spec.ts',
        "import { expectedSmokeChecks } from '../main/test-support/smoke-checks';\nexport const probe = expectedSmokeChecks;",
      ],
    ];
    for (const [file, code] of allowed) {
      expect(await ruleIdsFor(file, `${code}\n`), file).toEqual([]);
    }
  });
});

describe('the tree obeys the layering (a cheap scan, independent of the lint config)', () => {
  it('imports electron only from main/front-doors/electron/ and preload/, never from shared/ or renderer/', async () => {
    const offenders: string[] = [];
    for (const layer of ['main', 'shared', 'renderer']) {
      for await (const file of sourceFiles(join(root, layer))) {
        const rel = relative(root, file);
        if (rel.startsWith(join('main', 'front-doors', 'electron'))) continue;
        const text = await readFile(file, 'utf8');
        if (/from '(electron|node:[^']+)'/.test(text) && !rel.startsWith('main')) offenders.push(rel);
        if (/^import (?!type)[^;]*from 'electron'/m.test(text)) offenders.push(rel);
      }
    }
    expect(offenders).toEqual([]);
  });
});
