// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Regexes, not globs: a glob like 'fs' would also match a relative './fs'. The file system is left to
// banFsPaths, so that its importer hears where to go instead.
const banNode = {
  regex: '^(node:(?!fs(/promises)?$).*|path|os|child_process|crypto|http|https|net|stream|url|util|worker_threads)$',
  message: 'Node APIs belong in main/ (only main/ runs in Node).',
};
/**
 * One way to disk (issue 15): workspace bytes go through main/platform/disk/, Familiar's own data through
 * main/platform/storage/, and nothing else opens a file, so a new feature cannot bypass either. The
 * platform modules built on the disk's anchored lookups also touch it: the search engines' file workers
 * (reads by descriptor, on their own threads), watching (fs.watch on folders the disk resolved),
 * recovery (backups and the temp journal in Familiar's data) and processes (is a program on PATH
 * executable). Tests and their helpers build fixtures and may use fs. main/one-way-to-disk.test.ts
 * proves the rule fires and scans the tree for imports the rule could miss.
 */
const goToDiskOwners =
  'Only main/platform/disk/ and main/platform/storage/ touch the disk. Workspace files: the WorkspaceSandbox (main/platform/disk/workspace-sandbox.ts). ' +
  "Familiar's own data (settings, transcripts, audit, caches, app files): main/platform/storage/ (json-file.ts, jsonl-file.ts, folders.ts, data-files.ts, app-files.ts).";
/**
 * One way to start a process: every child Familiar starts goes through main/platform/processes/ (the
 * allow-listed environment, the process-group kill, and the operating system's confinement).
 */
const goToProcessOwner =
  'Only main/platform/processes/ starts a process: runProcess (process-runner.ts), spawnServerProcess (server-process.ts) or startOutputProcess (output-process.ts).';
/**
 * Inside it, one file spawns: spawn-launch.ts turns a launch (confined-launch.ts: the program, or the
 * confinement around it) into a process, so no start there can skip the launch's environment and rules.
 * The confinement probe runs bwrap / sandbox-exec alone to learn whether they work.
 */
const goToSpawnLaunch =
  'Inside main/platform/processes/, only spawn-launch.ts spawns: start a launch (launchFor) with spawnLaunch.';
const processSpawners = ['main/platform/processes/spawn-launch.ts', 'main/platform/processes/confinement.ts'];
const processModules = ['child_process', 'node:child_process'];
const banProcessPaths = processModules.map((name) => ({ name, message: goToProcessOwner }));
const banProcessSyntax = [
  {
    selector: 'ImportExpression[source.value=/^(node:)?child_process$/]',
    message: goToProcessOwner,
  },
];
const fsModules = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'];
/** `paths` for no-restricted-imports: the four names of the file system, and createRequire (a require by another name). */
const banFsPaths = [
  ...fsModules.map((name) => ({ name, message: goToDiskOwners })),
  ...['module', 'node:module'].map((name) => ({ name, importNames: ['createRequire'], message: goToDiskOwners })),
];
// esquery regexes end at the first '/', so the slash of fs/promises is written \x2F.
const fsModuleRegex = '/^(node:)?fs(\\x2Fpromises)?$/';
/** What no-restricted-imports cannot see: require(), import() and process.getBuiltinModule() of fs. */
const banFsSyntax = [
  { selector: `CallExpression[callee.name='require'][arguments.0.value=${fsModuleRegex}]`, message: goToDiskOwners },
  { selector: `ImportExpression[source.value=${fsModuleRegex}]`, message: goToDiskOwners },
  {
    selector: "CallExpression[callee.property.name='getBuiltinModule']",
    message: `Import Node modules statically. ${goToDiskOwners}`,
  },
  {
    // A computed module name could be 'node:fs' without lint ever seeing it.
    selector: "ImportExpression[source.type!='Literal']",
    message: 'import() takes a literal module name, so lint can see what is loaded.',
  },
];
const banRequire = { selector: "CallExpression[callee.name='require']", message: 'Use ES imports.' };
/** The disk owners, and the files that only tests run (they build fixtures). */
const diskOwners = [
  'main/platform/disk/**',
  'main/platform/storage/**',
  'main/platform/search-engines/**',
  'main/platform/watching/**',
  'main/platform/recovery/**',
];
const processOwners = ['main/platform/processes/**'];
const testOnly = [
  '**/*.test.ts',
  '**/*.test.tsx',
  'main/test-support/**',
  // Processes the tests start (bundled by main/test-support/child-script.ts).
  '**/*.child.ts',
];
const banElectron = {
  regex: '^electron(/.*)?$',
  message: 'Only main/front-doors/electron/ and preload/ may import Electron.',
};
const banUi = { regex: '^(react|react-dom|zustand)(/.*)?$', message: 'shared/ has no UI.' };

/**
 * The layers point one way: renderer → preload → shared ← main. eslint-plugin-boundaries makes the
 * linter, not memory, hold that line (main/layering.test.ts proves each rule fires).
 */
/**
 * Inside main/ the layers point one way too, from the front doors down to the platform (ARCHITECTURE.md).
 * A folder may import its own layer and the layers below it, never above. A new folder is in no
 * layer until it is listed here: 'main-unlisted' may import nothing of main, so lint says where it goes.
 */
const mainLayers = [
  // logging, storage, ipc, secrets, audit, heap: what every feature stands on.
  ['main-platform', 'main/platform/{logging,storage,ipc,secrets,audit,heap}/**'],
  // The platform's modules, each above the ones it builds on, so no two point at each other: the one
  // way to disk, the one way to start a process, the search engines, watching, recovery.
  ['main-disk', 'main/platform/disk/**'],
  ['main-processes', 'main/platform/processes/**'],
  ['main-search-engines', 'main/platform/search-engines/**'],
  ['main-watching', 'main/platform/watching/**'],
  ['main-recovery', 'main/platform/recovery/**'],
  // policy, approvals, persona, search, conversations, workspace, providers, transfers.
  ['main-domain', 'main/domain/**'],
  ['main-tools', 'main/tools/**'],
  ['main-tool-calls', 'main/tool-calls/**'],
  ['main-agent', 'main/agent/**'],
  ['main-core', 'main/core/**'],
  // electron, server (browser mode), mcp, smoke.
  ['main-front-doors', 'main/front-doors/**'],
];
const mainLayerTypes = mainLayers.map(([type]) => type);
/** Every element of main/: the layers, the tests' own helpers, and the files in no layer (main/*.ts). */
const mainTypes = [...mainLayerTypes, 'main-test-support', 'main-unlisted'];
const layers = [
  { type: 'shared', pattern: 'shared/**', partialMatch: false },
  // partialMatch false: the pattern is matched against each file's whole path.
  ...mainLayers.map(([type, pattern]) => ({ type, pattern, partialMatch: false })),
  { type: 'main-test-support', pattern: 'main/test-support/**', partialMatch: false },
  // main/*.ts: the entry points (file category 'entry' below) and the repository-wide tests.
  { type: 'main-unlisted', pattern: 'main/**', partialMatch: false },
  { type: 'preload', pattern: 'preload/**', partialMatch: false },
  { type: 'renderer', pattern: 'renderer/**', partialMatch: false },
  { type: 'e2e', pattern: 'e2e/**', partialMatch: false },
  { type: 'bench', pattern: 'bench/**', partialMatch: false },
  // Build tooling (icons, packaging checks, the Electron audit) runs in Node beside main.
  { type: 'scripts', pattern: 'scripts/**', partialMatch: false },
];
/**
 * File categories cut across layers. Tests in main/ (and the benchmarks) drive the real provider
 * code against the scripted LLM server, which lives with the e2e fixtures because the Playwright
 * process starts it too: that one file, and only from those files, crosses the layer line.
 */
const fileCategories = [
  { category: 'test', pattern: '**/*.test.ts' },
  { category: 'test-child', pattern: '**/*.child.ts' },
  { category: 'entry', pattern: 'main/*.ts' },
  // …and its sibling speaking the embeddings protocols (OpenAI /v1/embeddings, Ollama /api/embed).
  { category: 'llm-fixture', pattern: 'e2e/fixtures/scripted-{llm,embeddings}-server.ts' },
  // Agent Skills folders written for a test (node:fs only): the e2e spec and main's tests make the same ones.
  { category: 'skill-fixture', pattern: 'e2e/fixtures/skill-folders.ts' },
  // Pieces of the hand-written MCP server scripts (text only): the e2e fixture and main's test helpers share them.
  { category: 'mcp-script-fixture', pattern: 'e2e/fixtures/mcp-script-parts.ts' },
  // The app's own smoke test (shared and node:http only): e2e runs it against browser mode, and
  // expects the same checks as the desktop adapter's test.
  { category: 'smoke-test', pattern: 'main/front-doors/smoke/**' },
  { category: 'smoke-test', pattern: 'main/test-support/smoke-checks.ts' },
  // The desktop round trip runs the real preload against the real main process in one test.
  { category: 'desktop-round-trip', pattern: 'main/front-doors/electron/desktop-round-trip.test.ts' },
];
const mayImport = (from, to) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } } },
});
const layerPolicies = [
  mayImport('shared', ['shared']),
  ...mainLayerTypes.map((type, level) => mayImport(type, [...mainLayerTypes.slice(0, level + 1), 'shared'])),
  // The tests' helpers build whatever a test needs; the entry points (main/index.ts, serve.ts, mcp.ts)
  // start a front door.
  mayImport('main-test-support', [...mainTypes, 'shared']),
  mayImport('main-unlisted', ['shared']),
  {
    from: { element: { type: 'main-unlisted' }, file: { categories: 'entry' } },
    allow: { to: { element: { types: { anyOf: mainLayerTypes } } } },
  },
  // Tests (and the processes they start) may reach any part of main, and the tests' helpers.
  {
    from: { element: { types: { anyOf: mainTypes } }, file: { categories: { anyOf: ['test', 'test-child'] } } },
    allow: { to: { element: { types: { anyOf: mainTypes } } } },
  },
  mayImport('preload', ['preload', 'shared']),
  mayImport('renderer', ['renderer', 'shared']),
  mayImport('e2e', ['e2e', 'shared']),
  mayImport('bench', ['bench', ...mainTypes, 'shared']),
  mayImport('scripts', ['scripts', ...mainTypes, 'shared']),
  {
    from: { element: { types: { anyOf: mainTypes } }, file: { categories: 'test' } },
    allow: { to: { file: { categories: { anyOf: ['llm-fixture', 'skill-fixture'] } } } },
  },
  { from: { element: { type: 'main-test-support' } }, allow: { to: { file: { categories: 'mcp-script-fixture' } } } },
  { from: { element: { type: 'bench' } }, allow: { to: { file: { categories: 'llm-fixture' } } } },
  { from: { element: { type: 'e2e' } }, allow: { to: { file: { categories: 'smoke-test' } } } },
  { from: { file: { categories: 'desktop-round-trip' } }, allow: { to: { element: { type: 'preload' } } } },
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.corpus/**',
      'bench/.tree/**',
      'build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layers,
      'boundaries/files': fileCategories,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      'boundaries/dependencies': ['error', { default: 'disallow', policies: layerPolicies }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true } }],
      'no-restricted-syntax': ['error', banRequire],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      parserOptions: { projectService: false, project: null },
      globals: globals.node,
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: banFsPaths, patterns: [banNode, banElectron, banUi] }],
      'no-restricted-syntax': ['error', banRequire, ...banFsSyntax],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: banFsPaths, patterns: [banNode, banElectron] }],
      'no-restricted-syntax': [
        'error',
        banRequire,
        ...banFsSyntax,
        {
          selector: "MemberExpression[object.name='window'][property.name='familiar']",
          message: 'Only renderer/ipc/ touches window.familiar.',
        },
      ],
    },
  },
  {
    files: ['renderer/ipc/**'],
    rules: { 'no-restricted-syntax': ['error', banRequire, ...banFsSyntax] },
  },
  {
    files: ['main/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [banElectron] }] },
  },
  {
    // Product code in main: the file system only through the disk owners, processes only through theirs.
    files: ['main/**'],
    ignores: [...diskOwners, ...processOwners, ...testOnly],
    rules: {
      'no-restricted-imports': ['error', { paths: [...banFsPaths, ...banProcessPaths], patterns: [banElectron] }],
      'no-restricted-syntax': ['error', banRequire, ...banFsSyntax, ...banProcessSyntax],
    },
  },
  {
    files: processOwners,
    ignores: [...processSpawners, ...testOnly],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: processModules.map((name) => ({ name, message: goToSpawnLaunch })), patterns: [banElectron] },
      ],
      'no-restricted-syntax': [
        'error',
        banRequire,
        ...banProcessSyntax.map((rule) => ({ ...rule, message: goToSpawnLaunch })),
        // The other ways to a built-in module: a function given its name (server-process.ts holds
        // a createRequire), process.getBuiltinModule, and import() of a name lint cannot read.
        { selector: 'CallExpression[arguments.0.value=/^(node:)?child_process$/]', message: goToSpawnLaunch },
        { selector: "CallExpression[callee.property.name='getBuiltinModule']", message: goToSpawnLaunch },
        { selector: "ImportExpression[source.type!='Literal']", message: goToSpawnLaunch },
      ],
    },
  },
  {
    files: diskOwners,
    ignores: testOnly,
    rules: {
      'no-restricted-imports': ['error', { paths: banProcessPaths, patterns: [banElectron] }],
      'no-restricted-syntax': ['error', banRequire, ...banProcessSyntax],
    },
  },
  {
    files: ['main/front-doors/electron/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['main/front-doors/electron/**'],
    ignores: testOnly,
    rules: { 'no-restricted-imports': ['error', { paths: [...banFsPaths, ...banProcessPaths] }] },
  },
  {
    files: ['preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: banFsPaths, patterns: [banNode] }],
      'no-restricted-syntax': ['error', banRequire, ...banFsSyntax],
    },
  },
  {
    // Tools expect default exports from their config files; React.lazy needs them at lazy boundaries.
    files: ['*.config.ts', '*.config.js', 'e2e/global-setup.ts', 'renderer/**/*.lazy.tsx'],
    rules: { 'no-restricted-exports': 'off' },
  },
);
