import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintProbe, repoRoot as root, sourceFiles } from './test-support/lint-probe';

const ruleIdsFor = async (filePath: string, code: string): Promise<string[]> =>
  (await lintProbe(filePath, code)).map((message) => message.ruleId);

/** A probe file that imports `module` and uses what it imported. */
const importOf = (module: string) => `import * as imported from '${module}';\nexport const probe = imported;\n`;

describe('layer boundaries are enforced by lint', () => {
  const outOfLayer = 'boundaries/dependencies';
  const restricted = 'no-restricted-imports';
  /** [the importing file, a module it may not import, the rule that refuses it] */
  const forbidden: [string, string, string][] = [
    ['renderer/probe.ts', '../main/core/create-core', outOfLayer],
    ['renderer/probe.ts', 'electron', restricted],
    ['renderer/probe.ts', 'node:fs/promises', restricted],
    ['renderer/probe.ts', 'fs', restricted],
    ['main/probe.ts', '../renderer/app/App', outOfLayer],
    ['main/core/probe.ts', 'electron', restricted],
    ['shared/probe.ts', '../main/core/create-core', outOfLayer],
    ['shared/probe.ts', '../renderer/app/App', outOfLayer],
    ['shared/probe.ts', 'node:path', restricted],
    ['shared/probe.ts', 'electron', restricted],
    ['preload/probe.ts', '../main/core/create-core', outOfLayer],
    // The scripted LLM server is for tests: shipped main code may not import it, nor tests elsewhere.
    ['main/agent/probe.ts', '../../e2e/fixtures/scripted-llm-server', outOfLayer],
    ['renderer/probe.test.ts', '../e2e/fixtures/scripted-llm-server', outOfLayer],
    // ...and tests may import only that fixture, not the rest of e2e/.
    ['main/agent/probe.test.ts', '../../e2e/fixtures/familiar-app', outOfLayer],
    // e2e may run the app's smoke test (and know the checks it expects), and nothing else of main/.
    ['e2e/probe.spec.ts', '../main/core/create-core', outOfLayer],
    ['e2e/probe.spec.ts', '../main/test-support/temp-dir', outOfLayer],
    // Inside main/, from the front doors down to the platform (ARCHITECTURE.md): never upward.
    ['main/platform/disk/probe.ts', '../../tools/define-tool', outOfLayer],
    // Inside the platform too, each module above the ones it builds on: no two point at each other.
    ['main/platform/disk/probe.ts', '../processes/process-runner', outOfLayer],
    ['main/platform/disk/probe.ts', '../recovery/temp-journal', outOfLayer],
    ['main/platform/processes/probe.ts', '../search-engines/ripgrep-search', outOfLayer],
    ['main/platform/storage/probe.ts', '../disk/workspace-sandbox', outOfLayer],
    ['main/platform/new-folder/probe.ts', '../storage/paths', outOfLayer],
    ['main/platform/storage/probe.ts', '../../core/create-core', outOfLayer],
    ['main/domain/policy/probe.ts', '../../tool-calls/tool-calls', outOfLayer],
    ['main/tools/probe.ts', '../tool-calls/tool-calls', outOfLayer],
    ['main/tool-calls/probe.ts', '../agent/run-turn', outOfLayer],
    ['main/agent/probe.ts', '../core/create-core', outOfLayer],
    ['main/core/probe.ts', '../front-doors/mcp/mcp-server', outOfLayer],
    // Shipped code never leans on the tests' helpers; a new folder must be given a layer first.
    ['main/tools/probe.ts', '../test-support/tool-kit', outOfLayer],
    ['main/new-folder/probe.ts', '../platform/storage/paths', outOfLayer],
    // A folder named like a layer deep inside another layer must not borrow that layer's rights.
    ['renderer/features/main/probe.ts', '../../../main/core/create-core', outOfLayer],
  ];

  it.each(forbidden)('%s may not import %s (%s)', async (file, module, rule) => {
    expect(await ruleIdsFor(file, importOf(module))).toContain(rule);
  });

  it('lets only renderer/ipc/ touch window.familiar', async () => {
    const code = "void window.familiar?.invoke('app.info', {});\nexport const probe = 1;\n";
    expect(await ruleIdsFor('renderer/features/probe.ts', code)).toContain('no-restricted-syntax');
    expect(await ruleIdsFor('renderer/ipc/probe.ts', 'export const probe = window.familiar;\n')).toEqual([]);
  });

  it('allows what the layering permits', async () => {
    /** [the importing file, a module it may import] */
    const allowed: [string, string][] = [
      ['main/front-doors/electron/probe.ts', 'electron'],
      ['preload/probe.ts', 'electron'],
      ['main/probe.ts', '../shared/ipc/contract'],
      ['renderer/probe.ts', '../shared/ipc/contract'],
      ['renderer/features/main/probe.ts', '../../app/App'],
      ['main/tool-calls/probe.ts', '../tools/define-tool'],
      ['main/tools/probe.ts', '../platform/storage/paths'],
      ['main/platform/recovery/probe.ts', '../disk/workspace-sandbox'],
      ['main/platform/search-engines/probe.ts', '../processes/output-process'],
      ['main/front-doors/electron/probe.ts', '../../core/create-core'],
      ['main/probe.ts', './core/create-core'],
      ['main/tools/probe.test.ts', '../test-support/tool-kit'],
      ['main/agent/probe.test.ts', '../../e2e/fixtures/scripted-llm-server'],
      ['bench/probe.ts', '../e2e/fixtures/scripted-llm-server'],
      ['e2e/probe.spec.ts', '../main/front-doors/smoke/run-smoke-test'],
      ['e2e/probe.spec.ts', '../main/test-support/smoke-checks'],
    ];
    for (const [file, module] of allowed) {
      expect(await ruleIdsFor(file, importOf(module)), `${file} importing ${module}`).toEqual([]);
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

/** Relative imports of a file (static, re-exported and type-only alike: a type import ties files too). */
const relativeImports = (text: string) =>
  [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);

describe('main/ has no import circles (a scan of the files, independent of the lint config)', () => {
  it('no shipped file of main/ reaches itself through its imports', async () => {
    const graph = new Map<string, string[]>();
    for await (const file of sourceFiles(join(root, 'main'))) {
      if (/\.(test|child)\.tsx?$/.test(file) || file.includes(`${join('main', 'test-support')}`)) continue;
      const text = await readFile(file, 'utf8');
      graph.set(
        file,
        relativeImports(text).map((spec) => resolve(dirname(file), spec)),
      );
    }
    const resolved = (target: string) =>
      [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((f) => graph.has(f));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const spec of graph.get(file) ?? []) {
        const next = resolved(spec);
        if (next === undefined) continue;
        if (state.get(next) === 'open') {
          circles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(root, f)).join(' -> '));
        } else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
    expect(circles).toEqual([]);
  });
});
